package io.github.boundedupload.local;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.spi.UploadSigner;
import io.github.boundedupload.support.Checksums;
import io.github.boundedupload.support.SafeText;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Direct uploads to the local disk: signs PUTs to a path of the application itself, and {@link #receive receives}
 * them, checking each as S3 checks a presigned PUT (the signature, the expiry when the request starts, the length, the
 * content type, and the checksum, whose mismatch leaves nothing stored). So the same grant-send-confirm flow works
 * without S3, on the origin of the application's own pages. The URL carries what was signed (key, size, type,
 * checksum, expiry) and an HMAC-SHA256 of it under a secret of at least 32 bytes, random per instance unless given (an
 * application of several instances on one shared disk gives them the same one). Thread-safe. Changes when what a
 * local upload's URL binds, or how it is checked, changes.
 *
 * <pre>{@code
 * LocalUploadSigner signer = LocalUploadSigner.create(storage, "/uploads");
 * DirectUploads direct = DirectUploads.builder(uploader, signer).build();
 * // PUT /uploads?key=...: signer.receive(query, contentType, contentLength, body)
 * }</pre>
 */
public final class LocalUploadSigner implements UploadSigner {

    private static final int MIN_SECRET_BYTES = 32;
    private static final String HMAC = "HmacSHA256";
    /** The query parameters a signature covers, in the order it covers them. */
    private static final List<String> SIGNED = List.of("key", "size", "type", "algorithm", "checksum", "expires");

    private final LocalFileUploader storage;
    private final String path;
    private final byte[] secret;
    private final Clock clock;

    private LocalUploadSigner(LocalFileUploader storage, String path, byte[] secret, Clock clock) {
        this.storage = Objects.requireNonNull(storage, "storage");
        if (!path.startsWith("/") && !path.startsWith("http://") && !path.startsWith("https://")) {
            throw new IllegalArgumentException("the upload path is an absolute path or URL, was "
                    + SafeText.quote(path));
        }
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the secret has at least " + MIN_SECRET_BYTES + " bytes");
        }
        this.path = path;
        this.secret = secret.clone();
        this.clock = clock;
    }

    /**
     * A signer with a random secret: its URLs are valid on this instance only, until it stops.
     *
     * @param storage the local storage the uploads are written to
     * @param path where the application receives them: a path of its own ({@code /uploads}), or an absolute URL
     * @return the signer
     */
    public static LocalUploadSigner create(LocalFileUploader storage, String path) {
        byte[] secret = new byte[MIN_SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return new LocalUploadSigner(storage, path, secret, Clock.systemUTC());
    }

    /**
     * A signer with a secret of the application's, shared by instances that share the disk.
     *
     * @param storage the local storage the uploads are written to
     * @param path where the application receives them: a path of its own ({@code /uploads}), or an absolute URL
     * @param secret at least 32 bytes; copied
     * @param clock the clock of the expiry
     * @return the signer
     */
    public static LocalUploadSigner create(LocalFileUploader storage, String path, byte[] secret, Clock clock) {
        return new LocalUploadSigner(storage, path, secret, clock);
    }

    @Override
    public SignedRequest signPut(SignRequest request) {
        Instant expires = clock.instant().plus(request.lifetime());
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("key", request.key());
        fields.put("size", Long.toString(request.size()));
        fields.put("type", request.contentType());
        request.checksumAlgorithm().ifPresent(algorithm -> fields.put("algorithm", algorithm));
        request.checksum().ifPresent(checksum -> fields.put("checksum", checksum));
        fields.put("expires", Long.toString(expires.getEpochSecond()));
        fields.put("signature", signature(fields));
        StringBuilder url = new StringBuilder(path).append('?');
        fields.forEach((name, value) -> url.append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)).append('&'));
        url.setLength(url.length() - 1);
        return new SignedRequest("PUT", URI.create(url.toString()), Map.of("Content-Type", request.contentType()),
                Map.of(), Instant.ofEpochSecond(expires.getEpochSecond()));
    }

    /**
     * Not supported: the local disk signs no forms.
     *
     * @param request the request
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public SignedRequest signPost(SignRequest request) {
        throw new UnsupportedOperationException("the local disk signs no form uploads; sign a PUT");
    }

    /**
     * Receives a signed PUT: checks its signature and expiry, then its length and content type against what was
     * signed, before reading the body; writes the body under the signed key, refused (and nothing stored) when it is
     * not as long as signed or its checksum is not the signed one.
     *
     * @param query the request's query parameters, decoded
     * @param contentType the request's {@code Content-Type}, or {@code null}
     * @param contentLength the request's {@code Content-Length}, or -1 when it has none
     * @param body the request's body
     * @return what was stored
     * @throws RefusedException when the request is not one this signer signed, or not as signed
     * @throws IOException when the body cannot be read or written
     */
    public StoredObject receive(Map<String, String> query, @Nullable String contentType, long contentLength,
            InputStream body) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String name : SIGNED) {
            String value = query.get(name);
            if (value != null) {
                fields.put(name, value);
            }
        }
        String given = query.get("signature");
        String key = fields.get("key");
        String signedSize = fields.get("size");
        String type = fields.get("type");
        String expires = fields.get("expires");
        if (given == null || key == null || signedSize == null || type == null || expires == null
                || !MessageDigest.isEqual(signature(fields).getBytes(StandardCharsets.US_ASCII),
                        given.getBytes(StandardCharsets.US_ASCII))) {
            throw new RefusedException(403, "the upload's signature does not match");
        }
        if (clock.instant().getEpochSecond() > Long.parseLong(expires)) {
            throw new RefusedException(403, "the upload's signature has expired");
        }
        long size = Long.parseLong(signedSize);
        if (contentLength != size) {
            throw new RefusedException(400, "the upload has " + (contentLength < 0 ? "no length" : contentLength
                    + " bytes") + ", not the " + size + " signed");
        }
        if (!type.equals(contentType)) {
            throw new RefusedException(400, "the upload's content type is not the one signed");
        }
        String algorithm = fields.get("algorithm");
        Checksums checksum = algorithm == null ? null : Checksums.of(algorithm);
        InputStream checked = checksum == null ? body : new FilterInputStream(body) {
            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    checksum.update(buffer, offset, n);
                }
                return n;
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }
        };
        Attachment attachment = Attachment.builder("upload", AttachmentContent.ofStream(() -> checked, size))
                .contentType(type).build();
        StoredObject stored = storage.upload(UploadRequest.of(key, attachment));
        if (checksum != null && !checksum.base64().equals(fields.get("checksum"))) {
            storage.delete(key);
            throw new RefusedException(400, "the upload's " + algorithm + " checksum is not the one signed");
        }
        return stored;
    }

    private String signature(Map<String, String> fields) {
        StringBuilder canonical = new StringBuilder("PUT");
        for (String name : SIGNED) {
            canonical.append('\n').append(fields.getOrDefault(name, ""));
        }
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(secret, HMAC));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(
                    canonical.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(HMAC + " is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "LocalUploadSigner[" + storage + "]";
    }

    /** A received upload that is not as signed: the HTTP status to answer with, and why (no secret in it). */
    public static final class RefusedException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /** The HTTP status: 403 for the signature or the expiry, 400 for the rest. */
        private final int status;

        RefusedException(int status, String message) {
            super(message);
            this.status = status;
        }

        /**
         * The HTTP status to answer with.
         *
         * @return 403 for the signature or the expiry, 400 for the rest
         */
        public int status() {
            return status;
        }
    }
}
