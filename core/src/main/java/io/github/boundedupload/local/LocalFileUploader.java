package io.github.boundedupload.local;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.internal.Names;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * Stores objects as files under a root directory: the embedded default storage, for development, tests and single
 * machines. Each upload is written to a temporary file next to its target and then moved into place, so a reader
 * never sees half a file and a failed upload leaves nothing behind. Keys cannot escape the root: they are checked
 * (no {@code ..} or empty segments, no backslashes, no leading {@code /}) and the target's real directory must lie
 * inside the root's, even through symbolic links.
 *
 * <p>Results carry a {@code file:} location and a CRC32 checksum in S3's format (Base64 of the big-endian value).
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
     * @throws IllegalArgumentException when the key is invalid
     */
    public Path resolve(String key) {
        String problem = Names.keyProblem(key);
        if (problem != null) {
            throw new IllegalArgumentException("invalid key " + Names.quote(key) + ": " + problem);
        }
        Path target = root.resolve(key).normalize();
        if (!target.startsWith(root) || target.equals(root)) {
            throw new IllegalArgumentException("key " + Names.quote(key) + " leaves the root directory");
        }
        return target;
    }

    @Override
    public StoredObject upload(UploadRequest request) throws IOException {
        Path target = resolve(request.key());
        Path directory = target.getParent();
        Files.createDirectories(directory);
        if (!directory.toRealPath().startsWith(root)) {
            throw new IOException("key " + Names.quote(request.key()) + " leads out of the root directory through a"
                    + " symbolic link");
        }
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("key " + Names.quote(request.key()) + " names a directory");
        }
        Path temp = Files.createTempFile(directory, ".upload-", ".tmp");
        try {
            CRC32 crc = new CRC32();
            long size = copy(request, temp, crc);
            long declared = request.contentLength().orElse(size);
            if (size != declared) {
                throw new IOException("the content yielded " + size + " bytes, not its declared length of "
                        + declared);
            }
            move(temp, target);
            return StoredObject.builder(request.key(), size)
                    .location(target.toUri())
                    .checksum("CRC32", Base64.getEncoder().encodeToString(
                            ByteBuffer.allocate(4).putInt((int) crc.getValue()).array()))
                    .build();
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static long copy(UploadRequest request, Path temp, CRC32 crc) throws IOException {
        byte[] buffer = new byte[BUFFER_SIZE];
        long size = 0;
        try (InputStream in = request.openStream(); OutputStream out = Files.newOutputStream(temp)) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (Thread.interrupted()) {
                    throw new InterruptedIOException("interrupted after " + size + " bytes");
                }
                out.write(buffer, 0, n);
                crc.update(buffer, 0, n);
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
        Files.deleteIfExists(resolve(key));
    }

    @Override
    public String toString() {
        return "LocalFileUploader[" + root + "]";
    }
}
