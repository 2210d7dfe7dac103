package io.github.boundedupload.support;

import io.github.boundedupload.internal.Names;
import org.jspecify.annotations.Nullable;

/**
 * Untrusted text made safe for messages and logs, as this library writes it: what a storage adapter uses to name an
 * attachment or a key in its own exceptions. Control and invisible formatting characters are escaped (a file name
 * cannot forge a log line or hide an extension), and long text is shortened.
 *
 * <pre>{@code
 * throw new IOException("could not store " + SafeText.quote(request.fileName()) + ": " + SafeText.describe(e));
 * }</pre>
 */
public final class SafeText {

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
        return Names.quote(text);
    }

    /**
     * An exception as {@code SimpleName: message}, its message escaped like {@link #quote(String)} (and shortened to
     * 300 characters).
     *
     * @param failure the exception
     * @return its description
     */
    public static String describe(Throwable failure) {
        return Names.describe(failure);
    }
}
