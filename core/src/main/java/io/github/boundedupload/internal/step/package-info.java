/**
 * Implementation details. Not an API: anything here may change in any release.
 */
@NullMarked
package io.github.boundedupload.internal.step;

import org.jspecify.annotations.NullMarked;
