package io.github.boundedupload.s3.internal;

import io.github.boundedupload.s3.S3UploadOptions;
import java.net.URI;
import java.util.function.Function;

/**
 * What every upload of one uploader shares. Changes when the uploader gains a setting its uploads share.
 */
public record Settings(String bucket, S3UploadOptions options, Function<String, URI> location) {
}
