package io.github.boundedupload.direct;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.direct.GrantRefusedException.Reason;
import io.github.boundedupload.support.Checksums;
import io.github.boundedupload.support.SafeText;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks of what a client announces, before anything is kept or signed: the request's count and bytes, each
 * file's size, content type and checksum algorithm. Changes when a bound on announced files is added.
 */
final class Announced {

    /** {@code type/subtype}, the restricted names of RFC 6838, no parameters. */
    private static final Pattern CONTENT_TYPE = Pattern.compile(
            "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}");

    private final int maxFiles;
    private final long maxBytesPerFile;
    private final long maxBytes;
    private final Set<String> contentTypes;

    Announced(int maxFiles, long maxBytesPerFile, long maxBytes, Set<String> contentTypes) {
        this.maxFiles = maxFiles;
        this.maxBytesPerFile = maxBytesPerFile;
        this.maxBytes = maxBytes;
        this.contentTypes = Set.copyOf(contentTypes);
    }

    /**
     * Checks one request's files; returns them as attachments (no content), for the uploader's own checks.
     *
     * @throws GrantRefusedException naming the file and the bound
     */
    List<Attachment> check(List<FileToUpload> files) {
        if (files.isEmpty() || files.size() > maxFiles) {
            throw new GrantRefusedException(Reason.FILES_PER_REQUEST, "a request of " + files.size() + " files: a"
                    + " request has 1 to " + maxFiles + " files");
        }
        long bytes = 0;
        List<Attachment> attachments = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            FileToUpload file = Objects.requireNonNull(files.get(i), "file");
            String label = SafeText.label(i, file.fileName());
            if (file.size() < 0 || file.size() > maxBytesPerFile) {
                throw new GrantRefusedException(Reason.BYTES_PER_FILE, label + " is " + file.size() + " bytes: a file"
                        + " has 0 to " + maxBytesPerFile + " bytes");
            }
            if (!CONTENT_TYPE.matcher(file.contentType()).matches() || !allowed(file.contentType())) {
                throw new GrantRefusedException(Reason.CONTENT_TYPE, label + " has the content type "
                        + SafeText.quote(file.contentType()) + ", which is not "
                        + (contentTypes.isEmpty() ? "a type/subtype" : "one of " + contentTypes));
            }
            if (file.checksumAlgorithm() != null && !Checksums.ALGORITHMS.contains(file.checksumAlgorithm())) {
                throw new GrantRefusedException(Reason.CHECKSUM, label + " has a checksum of the algorithm "
                        + SafeText.quote(file.checksumAlgorithm()) + ", which is not one of " + Checksums.ALGORITHMS);
            }
            bytes += file.size();
            attachments.add(Attachment.builder(file.fileName(), AttachmentContent.ofStream(InputStream::nullInputStream,
                    file.size())).contentType(file.contentType()).build());
        }
        if (bytes > maxBytes) {
            throw new GrantRefusedException(Reason.BYTES_PER_REQUEST, "the request's " + files.size() + " files are "
                    + bytes + " bytes: a request has at most " + maxBytes + " bytes");
        }
        return attachments;
    }

    private boolean allowed(String contentType) {
        if (contentTypes.isEmpty()) {
            return true;
        }
        String type = contentType.toLowerCase(Locale.ROOT);
        return contentTypes.contains(type) || contentTypes.contains(type.substring(0, type.indexOf('/') + 1) + "*");
    }
}
