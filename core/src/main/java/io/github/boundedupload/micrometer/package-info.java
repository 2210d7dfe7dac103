/**
 * Micrometer metrics for the uploader, as an {@link io.github.boundedupload.spi.UploadListener}. The only part of
 * the core that needs Micrometer on the class path.
 */
@NullMarked
package io.github.boundedupload.micrometer;

import org.jspecify.annotations.NullMarked;
