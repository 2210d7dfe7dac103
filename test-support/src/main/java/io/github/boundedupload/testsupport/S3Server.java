package io.github.boundedupload.testsupport;

import java.util.Locale;

/**
 * The real S3 servers the integration tests run against, and where they behave differently from Amazon S3, so that a
 * test can say which behaviour it covers ({@code assumeTrue(server.keepsStorageClass(), ...)}). Chosen with the
 * environment variable {@value #VARIABLE} (or the system property {@code bounded-upload.s3-server}):
 * {@code localstack} (the default) or {@code versitygw}. Changes when a supported server, or how it differs from Amazon
 * S3, changes.
 */
public enum S3Server {

    /** LocalStack (Python): S3 in memory; takes any credentials. */
    LOCALSTACK,
    /** The Versity S3 gateway (Go, posix backend): objects as plain files; checks credentials. */
    VERSITYGW;

    /** The environment variable that chooses the server. */
    public static final String VARIABLE = "BOUNDED_UPLOAD_S3_SERVER";

    /**
     * The server chosen for this JVM.
     *
     * @return the server, {@link #LOCALSTACK} unless chosen otherwise
     * @throws IllegalArgumentException for an unknown name
     */
    public static S3Server selected() {
        String name = System.getProperty("bounded-upload.s3-server", System.getenv(VARIABLE));
        if (name == null || name.isBlank()) {
            return LOCALSTACK;
        }
        return of(name);
    }

    /**
     * The server of a name as {@link #id()} gives it (any case, surrounding blanks ignored).
     *
     * @param id the name
     * @return the server
     * @throws IllegalArgumentException for an unknown name
     */
    public static S3Server of(String id) {
        return valueOf(id.trim().toUpperCase(Locale.ROOT));
    }

    /**
     * The lower-case name, as {@value #VARIABLE} takes it.
     *
     * @return the name
     */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The server's name, as reports and messages give it.
     *
     * @return {@code LocalStack} or {@code versitygw}
     */
    public String displayName() {
        return this == LOCALSTACK ? "LocalStack" : "versitygw";
    }

    /**
     * What the server is, in a few words, with the version the test services install.
     *
     * @return the description
     */
    public String description() {
        return this == LOCALSTACK ? "LocalStack 2026.3.0, a Python server keeping objects in memory"
                : "versitygw 1.8.0, a Go server keeping objects as files (posix backend)";
    }

    /**
     * Whether the server keeps the storage class and server-side encryption asked for (versitygw drops both).
     *
     * @return whether it does
     */
    public boolean keepsStorageClassAndEncryption() {
        return this == LOCALSTACK;
    }

    /**
     * Whether the server decodes metadata values that look like RFC 2047 encoded words, as S3 does (versitygw returns
     * them as stored).
     *
     * @return whether it does
     */
    public boolean decodesEncodedWordsInMetadata() {
        return this == LOCALSTACK;
    }

    /**
     * Whether the server honours a delete conditional on the object's ETag ({@code If-Match} on DeleteObject), as S3
     * does: versitygw does; LocalStack answers 501 Not Implemented (then the adapter deletes the key).
     *
     * @return whether it does
     */
    public boolean honoursConditionalDeletes() {
        return this == VERSITYGW;
    }

    /**
     * Whether the server checks the signature of a presigned URL, and so its expiry and the headers it binds (the
     * content length among them), as S3 does: versitygw does; LocalStack skips it unless started with
     * {@code S3_SKIP_SIGNATURE_VALIDATION=0}. Both check a checksum header against the body.
     *
     * @return whether it does
     */
    public boolean checksPresignedUrls() {
        return this == VERSITYGW;
    }
}
