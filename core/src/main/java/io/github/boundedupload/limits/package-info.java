/**
 * Adaptive concurrency limits on Netflix's concurrency-limits library, as a
 * {@link io.github.boundedupload.spi.ConcurrencyLimit}. The only part of the core that needs that library on the class
 * path.
 */
@NullMarked
package io.github.boundedupload.limits;

import org.jspecify.annotations.NullMarked;
