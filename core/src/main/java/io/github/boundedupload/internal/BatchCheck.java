package io.github.boundedupload.internal;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.InvalidAttachmentException.Problem;
import io.github.boundedupload.InvalidAttachmentException.Problem.Kind;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.support.Keys;
import io.github.boundedupload.support.SafeText;
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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks a whole batch before anything starts, and works out each attachment's key, its length and its weight against
 * the bytes-in-flight bound. Reports every problem at once, each naming its attachment. Changes when what makes an
 * attachment acceptable changes.
 */
final class BatchCheck {

    /** S3's limit for all user metadata of one object. */
    static final int MAX_METADATA_BYTES = 2048;
    private static final long UNREADABLE = -2;
    private static final Pattern METADATA_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");

    /**
     * An attachment that passed: its key, its weight against the bytes-in-flight bound, and the length it had when
     * checked (-1: unknown), which its upload must send exactly.
     */
    record Checked(Attachment attachment, String key, long weight, long length) {
    }

    private BatchCheck() {
    }

    /**
     * Checks the batch, in input order.
     *
     * @throws InvalidAttachmentException naming every attachment that is refused, and why
     */
    static List<Checked> of(List<Attachment> input, UploaderConfig config) {
        int size = input.size();
        if (size > config.maxAttachmentsPerBatch()) {
            throw new InvalidAttachmentException(List.of(new Problem(-1, null, Kind.TOO_MANY_ATTACHMENTS,
                    "there are " + size + " files, and at most " + config.maxAttachmentsPerBatch()
                            + " are taken at once")));
        }
        List<Attachment> attachments = new ArrayList<>(input); // a snapshot: later changes to the list do not matter
        List<Checked> checked = new ArrayList<>(size);
        List<Problem> problems = new ArrayList<>();
        Map<String, Integer> firstByKey = new HashMap<>(size + size / 3 + 1); // never resized
        for (int i = 0; i < size; i++) {
            Attachment attachment = attachments.get(i);
            if (attachment == null) {
                problems.add(new Problem(i, null, Kind.NULL_ATTACHMENT, "the attachment is null"));
                continue;
            }
            @Nullable Kind kind = Kind.FILE_NAME;
            String problem = Keys.fileNameProblem(attachment.fileName());
            if (problem == null) {
                kind = Kind.METADATA;
                problem = metadataProblem(attachment.metadata());
            }
            // Asked once: a file's size may change, and the upload must send exactly what was checked here.
            long length = problem == null ? length(attachment) : UNREADABLE;
            if (problem == null) {
                kind = length == UNREADABLE ? Kind.UNREADABLE
                        : length > config.maxAttachmentSize() ? Kind.TOO_LARGE : null;
                problem = kind == null ? null : contentProblem(kind, length, config);
            }
            String key = null;
            if (problem == null) {
                kind = Kind.KEY;
                try {
                    Optional<String> explicit = attachment.key();
                    key = explicit.isPresent() ? explicit.get() : config.keyStrategy().keyFor(attachment);
                    problem = key == null ? "the key strategy returned no key" : Keys.keyProblem(key);
                } catch (RuntimeException e) {
                    problem = "the key strategy failed: " + SafeText.describe(e);
                }
            }
            if (problem == null) {
                Integer first = firstByKey.putIfAbsent(Objects.requireNonNull(key), i);
                if (first != null) {
                    kind = Kind.DUPLICATE_KEY;
                    problem = "its key " + SafeText.quote(key) + " is also the key of file " + (first + 1);
                }
            }
            if (problem != null) {
                problems.add(new Problem(i, attachment.fileName(), Objects.requireNonNull(kind), problem));
                continue;
            }
            long weight = Math.min(length >= 0 ? length : config.maxAttachmentSize(), config.maxBytesInFlight());
            checked.add(new Checked(attachment, Objects.requireNonNull(key), weight, length));
        }
        if (!problems.isEmpty()) {
            throw new InvalidAttachmentException(problems);
        }
        return checked;
    }

    /** The content's length (-1: unknown), or {@link #UNREADABLE} when its file or its length cannot be read. */
    private static long length(Attachment attachment) {
        Path file = attachment.content().path().orElse(null);
        try {
            if (file != null) {
                // One stat for what it is and its size (not one each), then whether it may be read.
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                return attributes.isRegularFile() && Files.isReadable(file) ? attributes.size() : UNREADABLE;
            }
            return attachment.content().length().orElse(-1);
        } catch (IOException | UncheckedIOException e) {
            return UNREADABLE;
        }
    }

    private static String contentProblem(Kind kind, long length, UploaderConfig config) {
        // The path itself stays out of the message: it is the server's business, not the client's.
        return kind == Kind.TOO_LARGE ? "it is " + length + " bytes, and a file may have at most "
                + config.maxAttachmentSize() : "its file does not exist or cannot be read";
    }

    private static @Nullable String metadataProblem(Map<String, String> metadata) {
        if (metadata.isEmpty()) {
            return null;
        }
        int bytes = 0;
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, String> entry : metadata.entrySet()) {
            String name = entry.getKey();
            if (!METADATA_NAME.matcher(name).matches()) {
                return "metadata name " + SafeText.quote(name) + " is not letters, digits, '-' and '_'";
            }
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                return "metadata name " + SafeText.quote(name) + " appears twice (names ignore case)";
            }
            String value = entry.getValue();
            if (value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                return "metadata " + SafeText.quote(name) + " has a control character in its value";
            }
            bytes += Keys.utf8Length(name) + Keys.utf8Length(value);
        }
        if (bytes > MAX_METADATA_BYTES) {
            return "its metadata is " + bytes + " bytes, more than " + MAX_METADATA_BYTES;
        }
        return null;
    }
}
