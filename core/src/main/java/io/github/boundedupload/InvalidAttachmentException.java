package io.github.boundedupload;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A batch was refused before any upload started, because of its input: a {@code null} attachment, a blank or
 * dangerous file name, an invalid key, too much content, too many attachments, duplicate keys, invalid metadata,
 * or a file that cannot be read. The message names every offending attachment by position and name.
 */
public class InvalidAttachmentException extends UploadException {

    private static final long serialVersionUID = 1L;

    /** One thing wrong with one attachment (or with the batch as a whole). */
    public static final class Problem implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        private final int index;
        private final String attachment;
        private final String reason;

        /**
         * A problem.
         *
         * @param index the attachment's position in the batch, or {@code -1} for the batch as a whole
         * @param attachment how to name the attachment in messages (quoted, escaped file name), or empty for the batch
         * @param reason what is wrong
         */
        public Problem(int index, String attachment, String reason) {
            this.index = index;
            this.attachment = attachment;
            this.reason = reason;
        }

        /**
         * The attachment's position in the batch.
         *
         * @return the index, or {@code -1} when the problem is the batch as a whole
         */
        public int index() {
            return index;
        }

        /**
         * What is wrong.
         *
         * @return the reason
         */
        public String reason() {
            return reason;
        }

        @Override
        public String toString() {
            return index < 0 ? reason : "#" + index + (attachment.isEmpty() ? "" : " " + attachment) + ": " + reason;
        }
    }

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
