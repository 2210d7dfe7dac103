package io.github.boundedupload.benchmarks;

import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3UploadOptions;

/**
 * How a strategy is set up in a scenario. Changes when a setting a scenario gives its strategies changes.
 *
 * @param bucket the bucket every upload goes to
 * @param concurrency uploads in flight at once, where the strategy lets it be chosen
 * @param connections the HTTP connection pool of every client
 * @param uploader this library's configuration (its strategies only)
 * @param options the S3 adapter's options (this library's strategies only)
 */
record Setup(String bucket, int concurrency, int connections, UploaderConfig uploader, S3UploadOptions options) {
}
