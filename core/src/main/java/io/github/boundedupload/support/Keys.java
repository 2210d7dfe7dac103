package io.github.boundedupload.support;

import org.jspecify.annotations.Nullable;

/**
 * What this library accepts as a storage key and as a file name, checked before any upload starts: the rules a
 * storage adapter may rely on, and check again itself (the local storage does, before it touches the disk).
 * Changes when what a key or a file name may be changes.
 *
 * <pre>{@code
 * String problem = Keys.keyProblem(key);
 * if (problem != null) {
 *     throw new IllegalArgumentException("invalid key " + SafeText.quote(key) + ": " + problem);
 * }
 * }</pre>
 */
public final class Keys {

    /** The most bytes (UTF-8) of a file name: what common file systems allow. */
    public static final int MAX_FILE_NAME_BYTES = 255;
    /** The most bytes (UTF-8) of a key: what S3 allows. */
    public static final int MAX_KEY_BYTES = 1024;
    /** The most bytes (UTF-8) of one segment of a key: a file name on common file systems. */
    public static final int MAX_SEGMENT_BYTES = 255;

    private Keys() {
    }

    /**
     * Why a file name is refused, or {@code null} when it is fine: a file name is a name, not a path (no slash,
     * backslash or {@code ..}), valid Unicode without control or invisible formatting characters, and at most
     * {@value #MAX_FILE_NAME_BYTES} bytes of UTF-8.
     *
     * @param name a file name
     * @return what is wrong with it, or {@code null}
     */
    public static @Nullable String fileNameProblem(String name) {
        if (name.isBlank()) {
            return "the file name is blank";
        }
        if (name.indexOf('/') >= 0) {
            return "the file name contains '/'";
        }
        if (name.indexOf('\\') >= 0) {
            return "the file name contains '\\'";
        }
        if (name.contains("..")) {
            return "the file name contains '..'";
        }
        if (name.equals(".")) {
            return "the file name is '.'";
        }
        String text = textProblem(name);
        if (text != null) {
            return "the file name " + text;
        }
        if (utf8Length(name) > MAX_FILE_NAME_BYTES) {
            return "the file name is longer than " + MAX_FILE_NAME_BYTES + " bytes";
        }
        return null;
    }

    /**
     * Why a storage key is refused, or {@code null} when it is fine: keys are relative, {@code /}-separated, with no
     * empty, {@code .} or {@code ..} segments, no backslashes and no control characters; at most
     * {@value #MAX_KEY_BYTES} bytes of UTF-8 in all (S3's limit) and {@value #MAX_SEGMENT_BYTES} per segment (a file
     * name's, so that the local storage can hold every key).
     *
     * @param key a key
     * @return what is wrong with it, or {@code null}
     */
    public static @Nullable String keyProblem(String key) {
        if (key.isBlank()) {
            return "the key is blank";
        }
        if (key.startsWith("/")) {
            return "the key starts with '/'";
        }
        if (key.indexOf('\\') >= 0) {
            return "the key contains '\\'";
        }
        String text = textProblem(key);
        if (text != null) {
            return "the key " + text;
        }
        if (utf8Length(key) > MAX_KEY_BYTES) {
            return "the key is longer than " + MAX_KEY_BYTES + " bytes";
        }
        for (int start = 0; start <= key.length(); ) {
            int slash = key.indexOf('/', start);
            int end = slash < 0 ? key.length() : slash;
            int length = end - start;
            if (length == 0) {
                return "the key has an empty segment";
            }
            if (length == 1 && key.charAt(start) == '.' || length == 2 && key.startsWith("..", start)) {
                return "the key has a '" + key.substring(start, end) + "' segment";
            }
            int segmentBytes = utf8Length(key, start, end);
            if (segmentBytes > MAX_SEGMENT_BYTES) {
                return "a segment of the key is " + segmentBytes + " bytes, more than the " + MAX_SEGMENT_BYTES
                        + " bytes a file name may have";
            }
            start = end + 1;
        }
        return null;
    }

    private static @Nullable String textProblem(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                continue; // printable ASCII, most of every name and key: nothing to look up
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return "is not valid Unicode";
            } else if (Character.isISOControl(c)) {
                return "contains a control character";
            } else if (Character.getType(c) == Character.FORMAT) {
                // Bidirectional overrides and zero-width characters disguise names ("invoice\u202Efdp.exe").
                return "contains an invisible formatting character";
            }
        }
        return null;
    }

    /**
     * The number of bytes of a text in UTF-8, counted without encoding it.
     *
     * @param text the text
     * @return its length in UTF-8
     */
    public static int utf8Length(String text) {
        return utf8Length(text, 0, text.length());
    }

    /** The number of bytes in UTF-8 of the chars from {@code start} to {@code end}. */
    private static int utf8Length(String text, int start, int end) {
        int bytes = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3; // lone surrogates are encoded as '?' by getBytes, but are refused before they count
            }
        }
        return bytes;
    }
}
