package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.InvalidAttachmentException.Problem;
import io.github.boundedupload.InvalidAttachmentException.Problem.Kind;
import io.github.boundedupload.UploaderConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
            throw new InvalidAttachmentException(List.of(new Problem(-1, null, Kind.TOO_MANY_ATTACHMENTS,
                    "there are " + size + " files, and at most " + config.maxAttachmentsPerBatch()
                            + " are taken at once")));
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
                problems.add(new Problem(i, null, Kind.NULL_ATTACHMENT, "the attachment is null"));
                continue;
            }
            @Nullable Kind kind = Kind.FILE_NAME;
            String problem = Names.fileNameProblem(attachment.fileName());
            if (problem == null) {
                kind = Kind.METADATA;
                problem = metadataProblem(attachment.metadata());
            }
            if (problem == null) {
                kind = contentKind(attachment, config, lengths, i);
                problem = kind == null ? null : contentProblem(kind, lengths[i], config);
            }
            if (problem == null) {
                kind = Kind.KEY;
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
                    kind = Kind.DUPLICATE_KEY;
                    problem = "its key " + Names.quote(keys[i]) + " is also the key of file " + (first + 1);
                }
            }
            if (problem != null && kind != null) {
                problems.add(new Problem(i, attachment.fileName(), kind, problem));
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
     * Why the content is refused ({@link Kind#UNREADABLE} or {@link Kind#TOO_LARGE}), or null; its length goes into
     * {@code lengths[index]} (-1: unknown), asked once: a file's size may change, and the upload must send exactly
     * what was checked here.
     */
    private static @Nullable Kind contentKind(Attachment attachment, UploaderConfig config, long[] lengths, int index) {
        lengths[index] = -1;
        Path file = attachment.content().path().orElse(null);
        OptionalLong length;
        try {
            if (file != null) {
                // One stat for what it is and its size (not one each), then whether it may be read.
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                if (!attributes.isRegularFile() || !Files.isReadable(file)) {
                    return Kind.UNREADABLE;
                }
                length = OptionalLong.of(attributes.size());
            } else {
                length = attachment.content().length();
            }
        } catch (IOException | UncheckedIOException e) {
            return Kind.UNREADABLE;
        }
        lengths[index] = length.orElse(-1);
        return length.isPresent() && length.getAsLong() > config.maxAttachmentSize() ? Kind.TOO_LARGE : null;
    }

    private static String contentProblem(Kind kind, long length, UploaderConfig config) {
        // The path itself stays out of the message: it is the server's business, not the client's.
        return kind == Kind.TOO_LARGE ? "it is " + length + " bytes, and a file may have at most "
                + config.maxAttachmentSize() : "its file does not exist or cannot be read";
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
