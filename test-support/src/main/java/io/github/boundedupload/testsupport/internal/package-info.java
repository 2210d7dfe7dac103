/** How the test services are found or started; not for use outside this module. */
@NullMarked
package io.github.boundedupload.testsupport.internal;

import org.jspecify.annotations.NullMarked;
