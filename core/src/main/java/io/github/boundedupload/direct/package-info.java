/**
 * Direct uploads: clients send their files to the storage themselves, with requests signed for what they announced;
 * the application confirms what arrived as one batch of its uploader ({@link io.github.boundedupload.direct.DirectUploads}).
 */
@NullMarked
package io.github.boundedupload.direct;

import org.jspecify.annotations.NullMarked;
