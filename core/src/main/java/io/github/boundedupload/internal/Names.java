package io.github.boundedupload.internal;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import org.jspecify.annotations.Nullable;

/**
 * Checks and cleans file names and keys, and makes untrusted text safe to put into messages and logs.
 */
public final class Names {

    /** The most bytes (UTF-8) of a file name: what common file systems allow. */
    public static final int MAX_FILE_NAME_BYTES = 255;
    /** The most bytes (UTF-8) of a key: what S3 allows. */
    public static final int MAX_KEY_BYTES = 1024;
    private static final int MAX_SANITIZED_LENGTH = 120;
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
     * empty, {@code .} or {@code ..} segments, no backslashes and no control characters.
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
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty()) {
                return "the key has an empty segment";
            }
            if (segment.equals(".") || segment.equals("..")) {
                return "the key has a '" + segment + "' segment";
            }
        }
        if (utf8Length(key) > MAX_KEY_BYTES) {
            return "the key is longer than " + MAX_KEY_BYTES + " bytes";
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
        if (out.length() <= MAX_SANITIZED_LENGTH) {
            return out.toString();
        }
        int dot = out.lastIndexOf(".");
        String extension = dot > 0 && out.length() - dot <= 16 ? out.substring(dot) : "";
        int cut = MAX_SANITIZED_LENGTH - extension.length();
        if (Character.isHighSurrogate(out.charAt(cut - 1))) {
            cut--;
        }
        return out.substring(0, cut) + extension;
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
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
