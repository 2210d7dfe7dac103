/**
 * Attachments from Spring's multipart types ({@link io.github.boundedupload.spring.web.MultipartAttachments}):
 * {@code MultipartFile} (Spring MVC) and {@code FilePart} (WebFlux), streamed from disk, never read into memory.
 * Needs {@code spring-web} (and {@code spring-webflux} for {@code FilePart}) on the class path.
 */
@NullMarked
package io.github.boundedupload.spring.web;

import org.jspecify.annotations.NullMarked;
