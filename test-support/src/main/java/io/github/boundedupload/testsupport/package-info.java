/**
 * Test support for the modules of this build: {@link io.github.boundedupload.testsupport.FileUploaderContract} and
 * {@link io.github.boundedupload.testsupport.AsyncFileUploaderContract}, the tests every storage implementation
 * passes, and {@link io.github.boundedupload.testsupport.S3TestServices}, the real LocalStack and Toxiproxy the
 * integration tests run against. Never deployed.
 */
@NullMarked
package io.github.boundedupload.testsupport;

import org.jspecify.annotations.NullMarked;
