package io.github.boundedupload.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reproducible test content: pseudo-random bytes from a seed, written to files without holding them in memory, and
 * SHA-256 digests to compare what a store holds with what was sent. Changes when the way test content is made or
 * compared changes.
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

    /**
     * A publisher of the bytes {@link #stream(long, long)} gives, in buffers of 16 KiB, made as they are asked for:
     * every subscription gets the content anew, and only as many buffers as it requested.
     *
     * @param seed the seed
     * @param size the number of bytes
     * @return a publisher
     */
    public static Flow.Publisher<ByteBuffer> publisher(long seed, long size) {
        return subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private static final int BUFFER = 16 * 1024;
            private final InputStream in = stream(seed, size);
            private final AtomicLong requested = new AtomicLong();
            private long left = size;
            private volatile boolean stopped;

            @Override
            public void request(long n) {
                if (n <= 0) {
                    stopped = true;
                    subscriber.onError(new IllegalArgumentException("request(" + n + ") breaks rule 3.9"));
                    return;
                }
                // Whoever finds no demand outstanding emits; a request made meanwhile (from onNext) is picked up by
                // the loop below instead of emitting on top of it.
                if (requested.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b) > 0) {
                    return;
                }
                long demand = n;
                while (true) {
                    long sent = 0;
                    while (sent < demand && !stopped) {
                        if (left == 0) {
                            stopped = true;
                            subscriber.onComplete();
                            return;
                        }
                        byte[] bytes = new byte[(int) Math.min(BUFFER, left)];
                        int read;
                        try {
                            read = in.readNBytes(bytes, 0, bytes.length);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        left -= read;
                        subscriber.onNext(ByteBuffer.wrap(bytes, 0, read));
                        sent++;
                        if (left == 0 && !stopped) {
                            stopped = true;
                            subscriber.onComplete();
                            return;
                        }
                    }
                    if (stopped) {
                        return;
                    }
                    demand = requested.addAndGet(-sent);
                    if (demand == 0) {
                        return;
                    }
                }
            }

            @Override
            public void cancel() {
                stopped = true;
            }
        });
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
