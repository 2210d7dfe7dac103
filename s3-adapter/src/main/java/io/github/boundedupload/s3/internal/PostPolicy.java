package io.github.boundedupload.s3.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * A SigV4 POST policy, which the AWS SDK for Java v2 does not sign (aws-sdk-java-v2#1493): the policy document (the
 * bucket, the exact key, the content type, a {@code content-length-range} and the signing fields, until an
 * expiration), Base64, signed with the SigV4 signing key of the day, region and service ({@code s3}). See "Browser-Based
 * Uploads Using POST (AWS Signature Version 4)" in the S3 API reference. Changes when S3's POST policy changes.
 */
public final class PostPolicy {

    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd").withZone(ZoneOffset.UTC);
    /** ISO 8601 with milliseconds, as S3's examples give the expiration. */
    private static final DateTimeFormatter EXPIRATION = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private PostPolicy() {
    }

    /**
     * The form's fields, in the order they are sent (before the file): {@code key}, {@code Content-Type}, the signing
     * fields, {@code policy}, {@code x-amz-signature}.
     */
    public static Map<String, String> fields(String bucket, String key, String contentType, long maxSize,
            Instant now, Instant expiresAt, String region, String accessKeyId, String secretAccessKey,
            @Nullable String sessionToken) {
        String day = DAY.format(now);
        String credential = accessKeyId + "/" + day + "/" + region + "/s3/aws4_request";
        String stamp = STAMP.format(now);
        StringBuilder policy = new StringBuilder("{\"expiration\":")
                .append(json(EXPIRATION.format(expiresAt)))
                .append(",\"conditions\":[")
                .append("{\"bucket\":").append(json(bucket)).append("},")
                .append("[\"eq\",\"$key\",").append(json(key)).append("],")
                .append("[\"eq\",\"$Content-Type\",").append(json(contentType)).append("],")
                .append("[\"content-length-range\",0,").append(maxSize).append("],")
                .append("{\"x-amz-algorithm\":\"").append(ALGORITHM).append("\"},")
                .append("{\"x-amz-credential\":").append(json(credential)).append("},")
                .append("{\"x-amz-date\":\"").append(stamp).append("\"}");
        if (sessionToken != null) {
            policy.append(",{\"x-amz-security-token\":").append(json(sessionToken)).append("}");
        }
        policy.append("]}");
        String encoded = Base64.getEncoder().encodeToString(policy.toString().getBytes(StandardCharsets.UTF_8));
        byte[] signingKey = hmac(hmac(hmac(hmac(("AWS4" + secretAccessKey).getBytes(StandardCharsets.UTF_8), day),
                region), "s3"), "aws4_request");
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("key", key);
        fields.put("Content-Type", contentType);
        fields.put("x-amz-algorithm", ALGORITHM);
        fields.put("x-amz-credential", credential);
        fields.put("x-amz-date", stamp);
        if (sessionToken != null) {
            fields.put("x-amz-security-token", sessionToken);
        }
        fields.put("policy", encoded);
        fields.put("x-amz-signature", hex(hmac(signingKey, encoded)));
        return fields;
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return out.toString();
    }
}
