/**
 * Attachments from Spring's multipart types: {@code MultipartFile} (Spring MVC,
 * {@link io.github.boundedupload.spring.web.MultipartAttachments}) and {@code FilePart} (WebFlux,
 * {@link io.github.boundedupload.spring.web.FilePartAttachments}), streamed from disk, never read into memory.
 * Needs {@code spring-web} (and {@code spring-webflux} for {@code FilePart}) on the class path.
 */
@NullMarked
package io.github.boundedupload.spring.web;

import org.jspecify.annotations.NullMarked;
