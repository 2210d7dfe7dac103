package io.github.boundedupload.support;

import org.jspecify.annotations.Nullable;

/**
 * Untrusted text made safe for messages and logs, as this library writes it: what a storage adapter uses to name an
 * attachment or a key in its own exceptions. Control and invisible formatting characters are escaped (a file name
 * cannot forge a log line or hide an extension), and long text is shortened. Changes when the way messages show
 * untrusted text changes.
 *
 * <pre>{@code
 * throw new IOException("could not store " + SafeText.quote(request.fileName()) + ": " + SafeText.describe(e));
 * }</pre>
 */
public final class SafeText {

    private static final int MAX_QUOTED_LENGTH = 80;
    private static final int MAX_DESCRIBED_LENGTH = 300;

    private SafeText() {
    }

    /**
     * Untrusted text (a file name, a key), quoted, shortened to 80 characters and with control and formatting
     * characters escaped.
     *
     * @param text the text, or {@code null}
     * @return the quoted text, {@code null} as {@code null}
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

    /**
     * An exception as {@code SimpleName: message}, its message escaped like {@link #quote(String)} (and shortened to
     * 300 characters).
     *
     * @param failure the exception
     * @return its description
     */
    public static String describe(Throwable failure) {
        String message = failure.getMessage();
        String name = failure.getClass().getSimpleName();
        if (message == null || message.isEmpty()) {
            return name;
        }
        String quoted = quote(message.length() > MAX_DESCRIBED_LENGTH ? message.substring(0, MAX_DESCRIBED_LENGTH)
                : message);
        return name + ": " + quoted.substring(1, quoted.length() - 1);
    }

    /**
     * How messages name an attachment: {@code file 3 'slides.pdf'}, counted from 1 as a person counts files (the
     * API's indexes count from 0), the name quoted as {@link #quote(String)} does.
     *
     * @param index the attachment's index in its batch
     * @param fileName its file name
     * @return the label
     */
    public static String label(int index, @Nullable String fileName) {
        return "file " + (index + 1) + " " + quote(fileName);
    }
}
