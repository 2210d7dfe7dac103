/**
 * What storage adapters written outside this project may use besides the {@link io.github.boundedupload.spi SPI}:
 * helpers the library's own adapters use too. Unlike {@code io.github.boundedupload.internal}, which the module does
 * not export, this package keeps its API across releases.
 */
@NullMarked
package io.github.boundedupload.support;

import org.jspecify.annotations.NullMarked;
