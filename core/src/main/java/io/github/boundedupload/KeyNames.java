package io.github.boundedupload;

import io.github.boundedupload.support.Keys;
import io.github.boundedupload.support.SafeText;
import java.text.BreakIterator;
import java.text.Normalizer;
import java.util.Locale;

/**
 * How the {@link KeyStrategy key strategies} make keys of file names: a prefix checked once, and file names made safe
 * for keys and file systems. Changes when the shape of the keys this library makes changes.
 */
final class KeyNames {

    private static final int MAX_SANITIZED_LENGTH = 120;
    /**
     * The most bytes (UTF-8) of a sanitised name: what is left of a segment after the 37 bytes the dated UUID key
     * strategy puts in front ({@code <uuid>-}), with room to spare.
     */
    private static final int MAX_SANITIZED_BYTES = 200;

    private KeyNames() {
    }

    /**
     * A key prefix ending in {@code /}, or empty.
     *
     * @throws IllegalArgumentException when the prefix would make invalid keys
     */
    static String prefix(String prefix) {
        String trimmed = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (trimmed.isEmpty()) {
            return "";
        }
        String problem = Keys.keyProblem(trimmed);
        if (problem != null) {
            throw new IllegalArgumentException("invalid key prefix " + SafeText.quote(prefix) + ": " + problem);
        }
        return trimmed + "/";
    }

    /** See {@link KeyStrategy#sanitize(String)}. */
    static String sanitize(String fileName) {
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
        if (sanitized.length() <= MAX_SANITIZED_LENGTH && Keys.utf8Length(sanitized) <= MAX_SANITIZED_BYTES) {
            return sanitized;
        }
        int dot = sanitized.lastIndexOf('.');
        String extension = dot > 0 && sanitized.length() - dot <= 16 ? sanitized.substring(dot) : "";
        String stem = sanitized.substring(0, sanitized.length() - extension.length());
        return shorten(stem, MAX_SANITIZED_LENGTH - extension.length(),
                MAX_SANITIZED_BYTES - Keys.utf8Length(extension)) + extension;
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
            int size = Keys.utf8Length(text.substring(start, next));
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
}
