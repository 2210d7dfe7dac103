package io.github.boundedupload.s3.internal;

import io.github.boundedupload.s3.S3UploadOptions.ContentDisposition;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Header values built from untrusted text, kept to safe, printable ASCII. Changes when a header takes text from
 * another source.
 */
public final class Headers {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Headers() {
    }

    /**
     * A {@code Content-Disposition} with the file name (RFC 6266): {@code filename="..."} with an ASCII stand-in
     * (anything but printable ASCII, {@code "}, {@code \} and {@code %} replaced by {@code _}), and, when that differs
     * from the name, {@code filename*=UTF-8''...} with the exact name percent-encoded (RFC 8187, formerly 5987).
     */
    public static @Nullable String contentDisposition(ContentDisposition disposition, String fileName) {
        if (disposition == ContentDisposition.NONE) {
            return null;
        }
        String type = disposition == ContentDisposition.INLINE ? "inline" : "attachment";
        if (isPlainAscii(fileName)) {
            return type + "; filename=\"" + fileName + '"'; // what the rest would make of it, without the copies
        }
        String name = Normalizer.normalize(fileName, Normalizer.Form.NFC);
        StringBuilder ascii = new StringBuilder(name.length());
        name.codePoints().forEach(cp -> ascii.append(cp >= 0x20 && cp < 0x7f && cp != '"' && cp != '\\' && cp != '%'
                ? (char) cp : '_'));
        StringBuilder header = new StringBuilder(type).append("; filename=\"").append(ascii).append('"');
        if (!ascii.toString().equals(name)) {
            header.append("; filename*=UTF-8''");
            for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
                int c = b & 0xff;
                if (isAttrChar(c)) {
                    header.append((char) c);
                } else {
                    header.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
                }
            }
        }
        return header.toString();
    }

    /** Printable ASCII without '"', '\\' and '%': a name that stands in the header as it is. */
    private static boolean isPlainAscii(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '%') {
                return false;
            }
        }
        return true;
    }

    /** RFC 8187 attr-char: what may stand unencoded in an extended parameter value. */
    private static boolean isAttrChar(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$&+-.^_`|~".indexOf(c) >= 0;
    }

    /**
     * User metadata as S3 takes it over HTTP: values that are not plain ASCII are sent as RFC 2047 encoded words
     * ({@code =?UTF-8?B?...?=}), which S3 decodes before storing. Sent raw, the SDK would put them into the header
     * as ISO-8859-1 and every other character would be stored as {@code ?}. Values that merely look like encoded
     * words are encoded too, so that S3 does not decode them.
     */
    public static Map<String, String> metadata(Map<String, String> metadata) {
        if (metadata.isEmpty()) {
            return Map.of();
        }
        Map<String, String> encoded = new LinkedHashMap<>();
        metadata.forEach((name, value) -> encoded.put(name, needsEncoding(value)
                ? "=?UTF-8?B?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?="
                : value));
        return encoded;
    }

    private static boolean needsEncoding(String value) {
        return value.contains("=?") || value.chars().anyMatch(c -> c < 0x20 || c >= 0x7f);
    }
}
