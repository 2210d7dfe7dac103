/**
 * bounded-upload's S3 storages on the AWS SDK for Java v2: {@code S3FileUploader} (blocking client) and
 * {@code S3AsyncFileUploader} (non-blocking client), with their options and exception; {@code S3UploadSigner}, the
 * signed requests of direct uploads.
 * {@code io.github.boundedupload.s3.internal} is not exported.
 */
module io.github.boundedupload.s3 {
    requires transitive io.github.boundedupload.core;
    requires transitive software.amazon.awssdk.services.s3;
    requires transitive software.amazon.awssdk.core;
    requires transitive software.amazon.awssdk.awscore;
    requires transitive software.amazon.awssdk.auth;
    requires transitive software.amazon.awssdk.regions;
    requires transitive software.amazon.awssdk.http.nio.netty;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.utils;
    requires org.reactivestreams;
    requires org.slf4j;
    requires static transitive org.jspecify;

    exports io.github.boundedupload.s3;
}
