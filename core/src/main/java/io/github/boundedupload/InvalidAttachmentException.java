package io.github.boundedupload;

import io.github.boundedupload.support.SafeText;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A batch was refused before any upload started, because of its input: a {@code null} attachment, a blank or
 * dangerous file name, an invalid key, too much content, too many attachments, duplicate keys, invalid metadata,
 * or a file that cannot be read. The message names every offending attachment by its number (counted from 1) and
 * name, and no setting: it may be shown to whoever sent the files. {@link #problems()} has the details for code.
 * Changes when what a batch refused for its input reports changes.
 */
public class InvalidAttachmentException extends UploadException {

    private static final long serialVersionUID = 1L;

    /** One thing wrong with one attachment (or with the batch as a whole). */
    public static final class Problem implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        /** What kind of problem, for code that answers each kind its own way (an HTTP status, a field error). */
        public enum Kind {
            /** The batch has more attachments than {@code UploaderConfig.maxAttachmentsPerBatch()}. */
            TOO_MANY_ATTACHMENTS,
            /** The attachment is {@code null}. */
            NULL_ATTACHMENT,
            /** The file name is blank, too long, or could be a path (a separator, {@code ..}, control characters). */
            FILE_NAME,
            /** The metadata has an invalid name or value, or is too large. */
            METADATA,
            /** The attachment's file does not exist or cannot be read, or its size cannot be read. */
            UNREADABLE,
            /** The content is larger than {@code UploaderConfig.maxAttachmentSize()}. */
            TOO_LARGE,
            /** The key is invalid, or the key strategy returned none or failed. */
            KEY,
            /** Another attachment of the batch has the same key. */
            DUPLICATE_KEY
        }

        private final int index;
        private final @Nullable String fileName;
        private final Kind kind;
        private final String reason;

        /**
         * A problem.
         *
         * @param index the attachment's position in the batch (from 0), or {@code -1} for the batch as a whole
         * @param fileName the attachment's file name, or {@code null} for the batch or a {@code null} attachment
         * @param kind what kind of problem
         * @param reason what is wrong, in words that name no setting
         */
        public Problem(int index, @Nullable String fileName, Kind kind, String reason) {
            this.index = index;
            this.fileName = fileName;
            this.kind = Objects.requireNonNull(kind, "kind");
            this.reason = Objects.requireNonNull(reason, "reason");
        }

        /**
         * The attachment's position in the batch, counted from 0 (messages count from 1).
         *
         * @return the index, or {@code -1} when the problem is the batch as a whole
         */
        public int index() {
            return index;
        }

        /**
         * The attachment's file name, as given: untrusted text, to be escaped before it is shown.
         *
         * @return the file name, or empty for the batch as a whole or a {@code null} attachment
         */
        public Optional<String> fileName() {
            return Optional.ofNullable(fileName);
        }

        /**
         * What kind of problem.
         *
         * @return the kind
         */
        public Kind kind() {
            return kind;
        }

        /**
         * What is wrong.
         *
         * @return the reason
         */
        public String reason() {
            return reason;
        }

        /** {@code file 3 'a/b.png': the file name contains '/'}, counted from 1 and escaped. */
        @Override
        public String toString() {
            if (index < 0) {
                return reason;
            }
            return (fileName == null ? "file " + (index + 1) : SafeText.label(index, fileName)) + ": " + reason;
        }
    }

    /** Serializable: {@code List.copyOf}'s lists are, and so is {@link Problem}. */
    @SuppressWarnings("serial") // javac 21+ warns on the declared type, List, which the value's class is not
    private final List<Problem> problems;

    /**
     * An exception listing the problems found.
     *
     * @param problems at least one problem
     */
    public InvalidAttachmentException(List<Problem> problems) {
        super(message(problems), null);
        this.problems = List.copyOf(problems);
    }

    private static String message(List<Problem> problems) {
        String list = problems.stream().map(Problem::toString).collect(Collectors.joining("; "));
        return (problems.size() == 1 ? "invalid attachment: " : problems.size() + " invalid attachments: ") + list;
    }

    /**
     * Everything found wrong, in input order.
     *
     * @return an unmodifiable list, never empty
     */
    public List<Problem> problems() {
        return problems;
    }
}
