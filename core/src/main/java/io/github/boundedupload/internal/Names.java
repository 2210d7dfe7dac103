package io.github.boundedupload.internal;

import java.text.BreakIterator;
import java.text.Normalizer;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Checks and cleans file names and keys, and makes untrusted text safe to put into messages and logs.
 */
public final class Names {

    /** The most bytes (UTF-8) of a file name: what common file systems allow. */
    public static final int MAX_FILE_NAME_BYTES = 255;
    /** The most bytes (UTF-8) of a key: what S3 allows. */
    public static final int MAX_KEY_BYTES = 1024;
    /** The most bytes (UTF-8) of one segment of a key: a file name on common file systems. */
    public static final int MAX_SEGMENT_BYTES = 255;
    private static final int MAX_SANITIZED_LENGTH = 120;
    /**
     * The most bytes (UTF-8) of a sanitised name: what is left of a segment after the 37 bytes the dated UUID key
     * strategy puts in front ({@code <uuid>-}), with room to spare.
     */
    static final int MAX_SANITIZED_BYTES = 200;
    private static final int MAX_QUOTED_LENGTH = 80;

    private Names() {
    }

    /**
     * Why a file name is refused, or {@code null} when it is fine. A file name is a name, not a path.
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
     * A key prefix ending in {@code /}, or empty.
     *
     * @throws IllegalArgumentException when the prefix would make invalid keys
     */
    public static String prefix(String prefix) {
        String trimmed = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (trimmed.isEmpty()) {
            return "";
        }
        String problem = keyProblem(trimmed);
        if (problem != null) {
            throw new IllegalArgumentException("invalid key prefix " + quote(prefix) + ": " + problem);
        }
        return trimmed + "/";
    }

    /** See {@code KeyStrategy.sanitize}. */
    public static String sanitize(String fileName) {
        String normalized = Normalizer.normalize(fileName, Normalizer.Form.NFC);
        StringBuilder out = new StringBuilder(normalized.length());
        normalized.codePoints().forEach(cp -> out.appendCodePoint(isSafe(cp) ? cp : '_'));
        if (out.length() > 0 && out.charAt(0) == '.') {
            out.setCharAt(0, '_');
        }
        if (out.length() == 0) {
            return "file";
        }
        String sanitized = out.toString();
        if (sanitized.length() <= MAX_SANITIZED_LENGTH && utf8Length(sanitized) <= MAX_SANITIZED_BYTES) {
            return sanitized;
        }
        int dot = sanitized.lastIndexOf('.');
        String extension = dot > 0 && sanitized.length() - dot <= 16 ? sanitized.substring(dot) : "";
        String stem = sanitized.substring(0, sanitized.length() - extension.length());
        return shorten(stem, MAX_SANITIZED_LENGTH - extension.length(),
                MAX_SANITIZED_BYTES - utf8Length(extension)) + extension;
    }

    /**
     * The longest start of the text within both limits that ends on a user-perceived character boundary: never half
     * a surrogate pair, never a base letter without its combining marks.
     */
    private static String shorten(String text, int maxChars, int maxBytes) {
        BreakIterator characters = BreakIterator.getCharacterInstance(Locale.ROOT);
        characters.setText(text);
        int end = 0;
        int bytes = 0;
        for (int start = characters.first(), next = characters.next(); next != BreakIterator.DONE;
                start = next, next = characters.next()) {
            int size = utf8Length(text.substring(start, next));
            if (next > maxChars || bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            end = next;
        }
        return end == 0 ? "file" : text.substring(0, end);
    }

    private static boolean isSafe(int cp) {
        if (cp == '.' || cp == '-' || cp == '_') {
            return true;
        }
        int type = Character.getType(cp);
        return Character.isLetterOrDigit(cp) || type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK;
    }

    /**
     * How messages name an attachment: {@code file 3 'slides.pdf'}, counted from 1 as a person counts files (the
     * API's indexes count from 0).
     *
     * @param index the attachment's index in its batch
     * @param fileName its file name
     * @return the label
     */
    public static String label(int index, @Nullable String fileName) {
        return "file " + (index + 1) + " " + quote(fileName);
    }

    /**
     * Untrusted text (a file name), quoted, shortened and with control and formatting characters escaped, safe for
     * messages and logs.
     */
    public static String quote(@Nullable String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_QUOTED_LENGTH) + 2).append('\'');
        for (int i = 0; i < text.length() && i < MAX_QUOTED_LENGTH; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT || Character.isSurrogate(c)
                    && !(Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1)))
                    && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1)))) {
                out.append(String.format("\\u%04X", (int) c));
            } else if (c == '\'') {
                out.append("\\'");
            } else {
                out.append(c);
            }
        }
        if (text.length() > MAX_QUOTED_LENGTH) {
            out.append("...");
        }
        return out.append('\'').toString();
    }

    /** An exception as {@code SimpleName: message}, the message escaped like {@link #quote(String)} does. */
    public static String describe(Throwable failure) {
        String message = failure.getMessage();
        String name = failure.getClass().getSimpleName();
        if (message == null || message.isEmpty()) {
            return name;
        }
        String quoted = quote(message.length() > 300 ? message.substring(0, 300) : message);
        return name + ": " + quoted.substring(1, quoted.length() - 1);
    }

    /** The number of bytes of a text in UTF-8. */
    public static int utf8Length(String text) {
        return utf8Length(text, 0, text.length());
    }

    /** The number of bytes in UTF-8 of the chars from {@code start} to {@code end}, counted without encoding. */
    static int utf8Length(String text, int start, int end) {
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
