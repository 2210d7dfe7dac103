package io.github.boundedupload.jdbc;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * What every child JVM of the journal's crash and pause tests takes first: the JDBC URL, then the S3 endpoint, access
 * key, secret key and region ({@code args[0]} to {@code args[4]}); the rest is the child's own.
 */
final class ChildArgs {

    private ChildArgs() {
    }

    /** A client of the S3 endpoint the arguments give (path-style, as the test servers want it). */
    static S3Client s3(String[] args) {
        return S3Client.builder().endpointOverride(URI.create(args[1])).forcePathStyle(true)
                .region(Region.of(args[4])).credentialsProvider(credentials(args)).build();
    }

    /** A presigner for the same endpoint, path-style. */
    static S3Presigner presigner(String[] args) {
        return S3Presigner.builder().endpointOverride(URI.create(args[1])).region(Region.of(args[4]))
                .credentialsProvider(credentials(args))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
    }

    private static StaticCredentialsProvider credentials(String[] args) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(args[2], args[3]));
    }
}
