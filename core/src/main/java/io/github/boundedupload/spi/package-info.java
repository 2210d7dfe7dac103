/**
 * Extension points: the storage ({@link io.github.boundedupload.spi.FileUploader},
 * {@link io.github.boundedupload.spi.AsyncFileUploader}), progress and metrics
 * ({@link io.github.boundedupload.spi.UploadListener}), and context propagation
 * ({@link io.github.boundedupload.spi.ContextPropagator}).
 */
@NullMarked
package io.github.boundedupload.spi;

import org.jspecify.annotations.NullMarked;
