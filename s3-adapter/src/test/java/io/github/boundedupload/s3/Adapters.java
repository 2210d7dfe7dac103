package io.github.boundedupload.s3;

/** What the integration tests share. */
final class Adapters {

    /** Content above the small-parts threshold: three parts. */
    static final long LARGE = 2 * S3UploadOptions.MIN_PART_SIZE + 12345;

    private Adapters() {
    }

    /** The smallest parts S3 allows, so that tests reach multipart with little content. */
    static S3UploadOptions smallParts() {
        return S3UploadOptions.builder()
                .multipartThreshold(S3UploadOptions.MIN_PART_SIZE)
                .partSize(S3UploadOptions.MIN_PART_SIZE)
                .build();
    }
}
