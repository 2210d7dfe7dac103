package io.github.boundedupload.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * Reproducible test content: pseudo-random bytes from a seed, written to files without holding them in memory, and
 * SHA-256 digests to compare what a store holds with what was sent.
 */
public final class TestData {

    private static final int CHUNK = 64 * 1024;

    private TestData() {
    }

    /**
     * Pseudo-random bytes; the same seed and size always give the same bytes.
     *
     * @param seed the seed
     * @param size the number of bytes
     * @return new bytes
     */
    public static byte[] bytes(long seed, int size) {
        byte[] bytes = new byte[size];
        fill(new SplittableRandom(seed), bytes, size);
        return bytes;
    }

    /**
     * Writes a file of pseudo-random bytes, in chunks: a file of any size costs 64 KiB of heap.
     *
     * @param file the file to create or replace
     * @param seed the seed
     * @param size the number of bytes
     * @return the file
     */
    public static Path file(Path file, long seed, long size) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] chunk = new byte[CHUNK];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = size; left > 0; left -= chunk.length) {
                int n = (int) Math.min(left, chunk.length);
                fill(random, chunk, n);
                out.write(chunk, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * A stream of pseudo-random bytes, produced as it is read: a stream of any size costs 64 KiB of heap.
     *
     * @param seed the seed
     * @param size the number of bytes
     * @return a new stream
     */
    public static InputStream stream(long seed, long size) {
        return new InputStream() {
            private final SplittableRandom random = new SplittableRandom(seed);
            private final byte[] chunk = new byte[CHUNK];
            private int position;
            private int available = 0;
            private long left = size;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                if (length == 0) {
                    return 0;
                }
                if (position == available) {
                    if (left == 0) {
                        return -1;
                    }
                    available = (int) Math.min(left, CHUNK);
                    fill(random, chunk, available);
                    left -= available;
                    position = 0;
                }
                int n = Math.min(length, available - position);
                System.arraycopy(chunk, position, buffer, offset, n);
                position += n;
                return n;
            }
        };
    }

    private static void fill(SplittableRandom random, byte[] bytes, int length) {
        for (int i = 0; i < length; i += 8) {
            long value = random.nextLong();
            for (int j = 0; j < 8 && i + j < length; j++) {
                bytes[i + j] = (byte) (value >>> (8 * j));
            }
        }
    }

    /**
     * The SHA-256 of bytes, in hex.
     *
     * @param bytes the bytes
     * @return the digest
     */
    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    /**
     * The SHA-256 of a stream's remaining bytes, in hex; reads in chunks and closes the stream.
     *
     * @param in the stream
     * @return the digest
     */
    public static String sha256(InputStream in) {
        MessageDigest digest = digest();
        byte[] chunk = new byte[CHUNK];
        try (in) {
            int n;
            while ((n = in.read(chunk)) >= 0) {
                digest.update(chunk, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * The SHA-256 of a file, in hex.
     *
     * @param file the file
     * @return the digest
     */
    public static String sha256(Path file) {
        try {
            return sha256(Files.newInputStream(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
