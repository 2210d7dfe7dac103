/**
 * Reactor adapters ({@link io.github.boundedupload.reactor.ReactiveUploads}), for WebFlux applications. Needs
 * {@code io.projectreactor:reactor-core} on the class path; the rest of the library runs without it.
 */
@NullMarked
package io.github.boundedupload.reactor;

import org.jspecify.annotations.NullMarked;
