/**
 * Implementation details. Not an API: anything here may change in any release.
 */
@NullMarked
package io.github.boundedupload.internal.queue;

import org.jspecify.annotations.NullMarked;
