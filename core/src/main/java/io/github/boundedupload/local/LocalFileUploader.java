package io.github.boundedupload.local;

import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.ListedObject;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.support.Keys;
import io.github.boundedupload.support.Checksums;
import io.github.boundedupload.support.SafeText;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * Stores objects as files under a root directory: the embedded default storage, for development, tests and single
 * machines. Each upload is written to a temporary file next to its target and then moved into place, so a reader
 * never sees half a file and a failed upload leaves nothing behind. Keys cannot escape the root: they are checked
 * (no {@code ..} or empty segments, no backslashes, no leading {@code /}), and for upload, delete and
 * {@link #resolve(String)} alike the real path of the key (its deepest existing part, the file itself when it exists)
 * must lie inside the root's real path: a symbolic link inside the root that leads out of it is refused, as a
 * directory on the way or as the file itself. Changes when the way objects are kept as files changes.
 *
 * <p>What this cannot promise: the check and the file operation are two steps, so someone who can write inside the
 * root and swaps a directory for a symbolic link between them can still redirect one operation. Give only this
 * process write access to the root.
 *
 * <p>Results carry a {@code file:} location and a CRC32 checksum in S3's format (Base64 of the big-endian value).
 * Content that is an object of this storage ({@link AttachmentContent#ofStoredObject(StoredObject)}) is checked against
 * its description (it exists, its size, its checksum where given: CRC32, CRC32C, SHA1 or SHA256, computed as it is
 * copied; a file has no ETag, so one given is not checked) and copied to its new key the same way, through a temporary file.
 *
 * <pre>{@code
 * FileUploader storage = new LocalFileUploader(Path.of("/var/lib/app/uploads"));
 * }</pre>
 */
public final class LocalFileUploader implements FileUploader {

    private static final int BUFFER_SIZE = 64 * 1024;

    private final Path root;

    /**
     * A storage under a root directory, created if missing.
     *
     * @param root the directory that holds every object
     * @throws IOException when the directory cannot be created or resolved
     */
    public LocalFileUploader(Path root) throws IOException {
        Files.createDirectories(root);
        this.root = root.toRealPath();
    }

    /**
     * The root directory, resolved to its real path.
     *
     * @return the root
     */
    public Path root() {
        return root;
    }

    /**
     * The file that holds (or would hold) a key.
     *
     * @param key a storage key
     * @return the file, inside the root
     * @throws IllegalArgumentException when the key is invalid, or leads out of the root through a symbolic link
     */
    public Path resolve(String key) {
        Path target = lexical(key);
        String outside = leadsOutside(target);
        if (outside != null) {
            throw new IllegalArgumentException("key " + SafeText.quote(key) + " " + outside);
        }
        return target;
    }

    /** The key as a path under the root, checked as text only. */
    private Path lexical(String key) {
        String problem = Keys.keyProblem(key);
        if (problem != null) {
            throw new IllegalArgumentException("invalid key " + SafeText.quote(key) + ": " + problem);
        }
        Path target = root.resolve(key).normalize();
        if (!target.startsWith(root) || target.equals(root)) {
            throw new IllegalArgumentException("key " + SafeText.quote(key) + " leaves the root directory");
        }
        return target;
    }

    /**
     * Why the path leads out of the root through a symbolic link, or {@code null} when its real path stays inside:
     * the deepest part that exists (the file itself, when it does) is resolved with every link followed.
     */
    private @Nullable String leadsOutside(Path target) {
        Path existing = target;
        while (existing != null && !existing.equals(root) && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null || existing.equals(root)) {
            return null;
        }
        try {
            if (!existing.toRealPath().startsWith(root)) {
                return "leads out of the root directory through a symbolic link";
            }
        } catch (IOException e) {
            // A dangling link, or a loop: nothing a key may lead through.
            return "leads through a symbolic link that cannot be resolved";
        }
        return null;
    }

    private Path inside(String key) throws IOException {
        Path target = lexical(key);
        String outside = leadsOutside(target);
        if (outside != null) {
            throw new IOException("key " + SafeText.quote(key) + " " + outside);
        }
        return target;
    }

    @Override
    public StoredObject upload(UploadRequest request) throws IOException {
        // Checked before any directory is created: createDirectories follows links.
        Path target = inside(request.key());
        Path directory = target.getParent();
        Files.createDirectories(directory);
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("key " + SafeText.quote(request.key()) + " names a directory");
        }
        StoredObject source = request.content().storedObject().orElse(null);
        Path from = source == null ? null : storedFile(source);
        Path temp = Files.createTempFile(directory, ".upload-", ".tmp");
        try {
            CRC32 crc = new CRC32();
            Checksums described = source == null ? null : source.checksumAlgorithm().map(Checksums::of).orElse(null);
            long size;
            try (InputStream in = from == null ? request.openStream() : Files.newInputStream(from)) {
                size = copy(in, temp, crc, described);
            }
            long declared = request.contentLength().orElse(size);
            if (size != declared) {
                throw new IOException((source == null ? "the content yielded " : "the stored object has ") + size
                        + " bytes, not its declared length of " + declared);
            }
            String checksum = Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue())
                    .array());
            String found = described == null ? null : described.base64();
            if (source != null && found != null && !source.checksum().orElse("").equals(found)) {
                throw new IOException("the stored object's " + source.checksumAlgorithm().orElse("") + " checksum is "
                        + found + ", not the " + source.checksum().orElse("") + " it was said to have");
            }
            if (from != null) {
                request.reportProgress(size);
            }
            move(temp, target);
            return StoredObject.builder(request.key(), size)
                    .location(target.toUri())
                    .checksum("CRC32", checksum)
                    .build();
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** The file of an object to copy, checked before anything is read: it exists, and its checksum can be checked. */
    private Path storedFile(StoredObject source) throws IOException {
        Path from = inside(source.key());
        if (!Files.isRegularFile(from, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException("no object under key " + SafeText.quote(source.key()));
        }
        try {
            source.checksumAlgorithm().ifPresent(Checksums::of);
        } catch (IllegalArgumentException e) {
            throw new IOException("the stored object cannot be checked: " + e.getMessage(), e);
        }
        return from;
    }

    private static long copy(InputStream in, Path temp, CRC32 crc, @Nullable Checksums described)
            throws IOException {
        byte[] buffer = new byte[BUFFER_SIZE];
        long size = 0;
        try (OutputStream out = Files.newOutputStream(temp)) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (Thread.interrupted()) {
                    throw new InterruptedIOException("interrupted after " + size + " bytes");
                }
                out.write(buffer, 0, n);
                crc.update(buffer, 0, n);
                if (described != null) {
                    described.update(buffer, 0, n);
                }
                size += n;
            }
        }
        return size;
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        Files.deleteIfExists(inside(key));
    }

    /**
     * The files whose keys start with the prefix, in key order, from the first after {@code after}; temporary files
     * of uploads in progress are left out. Reads the directory tree under the prefix's directory.
     */
    @Override
    public List<ListedObject> list(String prefix, @Nullable String after, int limit) throws IOException {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        int slash = prefix.lastIndexOf('/');
        // The prefix's directory, checked as a key's would be ("x": any name in it).
        Path directory = slash < 0 ? root : Objects.requireNonNull(inside(prefix.substring(0, slash + 1) + "x")
                .getParent(), "a directory");
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        TreeMap<String, Path> keys = new TreeMap<>();
        try (Stream<Path> files = Files.walk(directory)) {
            files.filter(file -> Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)).forEach(file -> {
                String key = root.relativize(file).toString().replace(File.separatorChar, '/');
                String name = file.getFileName().toString();
                boolean temporary = name.startsWith(".upload-") && name.endsWith(".tmp");
                if (key.startsWith(prefix) && !temporary && (after == null || key.compareTo(after) > 0)) {
                    keys.put(key, file);
                    if (keys.size() > limit) {
                        keys.pollLastEntry(); // only the page is held, however many files the tree has
                    }
                }
            });
        }
        List<ListedObject> listed = new ArrayList<>();
        for (Map.Entry<String, Path> entry : keys.entrySet()) {
            BasicFileAttributes attributes = Files.readAttributes(entry.getValue(), BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            listed.add(new ListedObject(entry.getKey(), attributes.size(), attributes.lastModifiedTime().toInstant()));
        }
        return listed;
    }

    @Override
    public String toString() {
        return "LocalFileUploader[" + root + "]";
    }
}
