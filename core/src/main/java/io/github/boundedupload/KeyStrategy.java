package io.github.boundedupload;

import java.time.Clock;
import java.time.LocalDate;
import java.util.Objects;
import java.util.UUID;

/**
 * Chooses the storage key of an attachment that has no {@link Attachment#key() explicit key}. File names reach a
 * key only through {@link #sanitize(String)}; whatever a strategy returns is still checked before any upload starts.
 * Changes when the way keys are made from attachments changes.
 *
 * <pre>{@code
 * KeyStrategy.datedUuid("attachments")  // attachments/2026/11/22/0b6f...-Algorithm.png   (the default, with "")
 * KeyStrategy.fileName("avatars/42")    // avatars/42/Algorithm.png                       (duplicates are refused)
 * attachment -> "studies/" + studyId + "/" + KeyStrategy.sanitize(attachment.fileName())
 * }</pre>
 */
@FunctionalInterface
public interface KeyStrategy {

    /**
     * The key for an attachment.
     *
     * @param attachment an attachment whose file name has already been checked
     * @return the storage key
     */
    String keyFor(Attachment attachment);

    /**
     * Keys of the form {@code prefix/yyyy/MM/dd/uuid-sanitizedName} (the date in UTC): unique, sortable by day, and
     * still readable. The default, with an empty prefix.
     *
     * @param prefix a key prefix such as {@code attachments}, or empty
     * @return the strategy
     */
    static KeyStrategy datedUuid(String prefix) {
        String base = KeyNames.prefix(prefix);
        Clock utc = Clock.systemUTC();
        return attachment -> {
            LocalDate day = LocalDate.now(utc);
            return String.format("%s%04d/%02d/%02d/%s-%s", base, day.getYear(), day.getMonthValue(),
                    day.getDayOfMonth(), UUID.randomUUID(), sanitize(attachment.fileName()));
        };
    }

    /**
     * Keys of the form {@code prefix/sanitizedName}. Two attachments of one batch with the same name get the same key,
     * and the batch is refused; a later batch with the same name overwrites the object.
     *
     * @param prefix a key prefix, or empty
     * @return the strategy
     */
    static KeyStrategy fileName(String prefix) {
        String base = KeyNames.prefix(prefix);
        return attachment -> base + sanitize(attachment.fileName());
    }

    /**
     * A file name made safe for keys and file systems: Unicode normalised (NFC); every character other than a letter,
     * digit, {@code .}, {@code -} or {@code _} replaced by {@code _}; a leading dot replaced too (no hidden files);
     * shortened to at most 120 characters and 200 bytes of UTF-8 (so that a key made of it, with the dated UUID
     * strategy's {@code <uuid>-} in front, stays within the 255 bytes of a file name), keeping the extension and
     * never cutting a character apart.
     *
     * @param fileName a file name
     * @return the sanitised name, never empty
     */
    static String sanitize(String fileName) {
        return KeyNames.sanitize(Objects.requireNonNull(fileName, "fileName"));
    }
}
