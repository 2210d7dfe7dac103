package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.InvalidAttachmentException.Problem;
import io.github.boundedupload.UploaderConfig;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks a whole batch before anything starts, and works out each attachment's key and its weight against the
 * bytes-in-flight bound. Reports every problem at once, each naming its attachment.
 */
final class BatchCheck {

    /** S3's limit for all user metadata of one object. */
    static final int MAX_METADATA_BYTES = 2048;
    private static final Pattern METADATA_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");

    final List<Attachment> attachments;
    final String[] keys;
    final long[] weights;
    /** The length each attachment had when checked (-1: unknown): what its upload must send, exactly. */
    final long[] lengths;

    private BatchCheck(List<Attachment> attachments, String[] keys, long[] weights, long[] lengths) {
        this.attachments = attachments;
        this.keys = keys;
        this.weights = weights;
        this.lengths = lengths;
    }

    static BatchCheck of(List<Attachment> input, UploaderConfig config) {
        int size = input.size();
        if (size > config.maxAttachmentsPerBatch()) {
            throw new InvalidAttachmentException(List.of(new Problem(-1, "", "the batch has " + size
                    + " attachments, more than the maximum of " + config.maxAttachmentsPerBatch()
                    + " (maxAttachmentsPerBatch)")));
        }
        List<Attachment> attachments = new ArrayList<>(input); // a snapshot: later changes to the list do not matter
        String[] keys = new String[size];
        long[] weights = new long[size];
        long[] lengths = new long[size];
        List<Problem> problems = new ArrayList<>();
        Map<String, Integer> firstByKey = new HashMap<>();
        for (int i = 0; i < size; i++) {
            Attachment attachment = attachments.get(i);
            if (attachment == null) {
                problems.add(new Problem(i, "", "the attachment is null"));
                continue;
            }
            String label = Names.quote(attachment.fileName());
            String problem = Names.fileNameProblem(attachment.fileName());
            if (problem == null) {
                problem = metadataProblem(attachment.metadata());
            }
            if (problem == null) {
                problem = contentProblem(attachment, config, lengths, i);
            }
            if (problem == null) {
                try {
                    keys[i] = attachment.key().orElseGet(() -> config.keyStrategy().keyFor(attachment));
                    problem = keys[i] == null ? "the key strategy returned no key" : Names.keyProblem(keys[i]);
                } catch (RuntimeException e) {
                    problem = "the key strategy failed: " + Names.describe(e);
                }
            }
            if (problem == null) {
                Integer first = firstByKey.putIfAbsent(keys[i], i);
                if (first != null) {
                    problem = "its key " + Names.quote(keys[i]) + " is also the key of #" + first;
                }
            }
            if (problem != null) {
                problems.add(new Problem(i, label, problem));
                continue;
            }
            weights[i] = Math.min(lengths[i] >= 0 ? lengths[i] : config.maxAttachmentSize(),
                    config.maxBytesInFlight());
        }
        if (!problems.isEmpty()) {
            throw new InvalidAttachmentException(problems);
        }
        return new BatchCheck(attachments, keys, weights, lengths);
    }

    /**
     * Why the content is refused, or null; its length goes into {@code lengths[index]} (-1: unknown), asked once:
     * a file's size may change, and the upload must send exactly what was checked here.
     */
    private static @Nullable String contentProblem(Attachment attachment, UploaderConfig config, long[] lengths, int index) {
        Path file = attachment.content().path().orElse(null);
        if (file != null && !(Files.isRegularFile(file) && Files.isReadable(file))) {
            // The path itself stays out of the message: it is the server's business, not the client's.
            return "its file does not exist or cannot be read";
        }
        OptionalLong length;
        try {
            length = attachment.content().length();
        } catch (UncheckedIOException e) {
            return "the size of its file cannot be read: " + Objects.requireNonNull(e.getCause()).getClass().getSimpleName();
        }
        lengths[index] = length.orElse(-1);
        if (length.isPresent() && length.getAsLong() > config.maxAttachmentSize()) {
            return "it is " + length.getAsLong() + " bytes, more than the maximum of " + config.maxAttachmentSize()
                    + " (maxAttachmentSize)";
        }
        return null;
    }

    private static @Nullable String metadataProblem(Map<String, String> metadata) {
        int bytes = 0;
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, String> entry : metadata.entrySet()) {
            String name = entry.getKey();
            if (!METADATA_NAME.matcher(name).matches()) {
                return "metadata name " + Names.quote(name) + " is not letters, digits, '-' and '_'";
            }
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                return "metadata name " + Names.quote(name) + " appears twice (names ignore case)";
            }
            String value = entry.getValue();
            if (value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                return "metadata " + Names.quote(name) + " has a control character in its value";
            }
            bytes += Names.utf8Length(name) + Names.utf8Length(value);
        }
        if (bytes > MAX_METADATA_BYTES) {
            return "its metadata is " + bytes + " bytes, more than " + MAX_METADATA_BYTES;
        }
        return null;
    }
}
