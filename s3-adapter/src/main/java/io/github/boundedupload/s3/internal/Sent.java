package io.github.boundedupload.s3.internal;

import io.github.boundedupload.support.Checksums;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;

/**
 * What the HTTP client took of a body, attempt by attempt (the SDK re-reads the body for every retry): whether any
 * attempt took every byte, and the checksum of those bytes. When a request then fails without an answer, that says
 * whether S3 may have stored the object, and how to recognise it. Also reports progress, where asked to.
 * Changes when what is known of a body that went out changes.
 *
 * <p>A request the uploader cancels does not stop at once: the non-blocking client may still be handed the body's
 * last bytes after its future was cancelled, and send them. {@link #seal()} ends that: no attempt is handed another
 * byte afterwards, so what it says is final.
 */
final class Sent {

    private static final long REPORT_EVERY = 256 * 1024;

    private final long length;
    private final @Nullable ChecksumAlgorithm algorithm;
    private final @Nullable LongConsumer progress;
    private volatile @Nullable String complete;
    private volatile @Nullable Path unseen;
    /** Guarded by this: once set, no attempt counts (and so hands the HTTP client) another byte. */
    private boolean sealed;

    private Sent(long length, @Nullable ChecksumAlgorithm algorithm, @Nullable LongConsumer progress) {
        this.length = length;
        this.algorithm = algorithm;
        this.progress = progress;
    }

    /** Tracks whole attempts and their checksum; reports progress to {@code progress} when not null. */
    static Sent tracked(long length, ChecksumAlgorithm algorithm, @Nullable LongConsumer progress) {
        return new Sent(length, algorithm, progress);
    }

    /** Tracks nothing (parts of multipart uploads, whose fate the upload id settles). */
    static Sent untracked(long length) {
        return new Sent(length, null, null);
    }

    long length() {
        return length;
    }

    /**
     * The HTTP client reads the body from this file itself, unwatched (the CRT client's native file path): whether
     * every byte went out is then unknown, so {@link #fullySent()} assumes it may have, and {@link #checksumOfFile()}
     * reads the file again when the answer is lost.
     */
    void readByClient(Path file) {
        unseen = file;
    }

    /** Whether the HTTP client read the body from a file itself ({@link #readByClient(Path)}). */
    boolean readByClient() {
        return unseen != null;
    }

    /** Reports the whole length as sent, for a body read by the HTTP client unwatched, once the request succeeded. */
    void succeeded() {
        if (unseen != null && progress != null) {
            progress.accept(length);
        }
    }

    /** Whether some attempt handed every byte to the HTTP client, or may have (a body the client read unwatched). */
    boolean fullySent() {
        return complete != null || unseen != null;
    }

    /**
     * Ends every attempt: from now on, a byte any of them is about to hand the HTTP client fails it instead
     * ({@link SealedException}), so that {@link #fullySent()} cannot change any more.
     *
     * @return {@link #fullySent()}, final
     */
    synchronized boolean seal() {
        sealed = true;
        return fullySent();
    }

    /** A byte offered to the HTTP client after {@link #seal()}: the upload has been given up on. */
    static final class SealedException extends java.io.IOException {
        private static final long serialVersionUID = 1L;

        SealedException() {
            super("the upload was given up on; no more of its content is sent");
        }
    }

    /** The checksum of the bytes of an attempt that sent them all, or null (see {@link #checksumOfFile()}). */
    @Nullable String checksum() {
        return complete;
    }

    /**
     * For a body the HTTP client read unwatched: reads the file again and keeps its checksum as {@link #checksum()}.
     * Blocking; does nothing for a watched body.
     */
    void checksumOfFile() throws IOException {
        Path file = unseen;
        if (file == null || algorithm == null || complete != null) {
            return;
        }
        Checksums digest = Digest.of(algorithm);
        byte[] buffer = new byte[64 * 1024];
        long left = length;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0; left -= n) {
                digest.update(buffer, 0, n);
            }
        }
        if (left == 0) {
            complete = digest.base64(); // a file that is shorter now was not what went out: no checksum to match
        }
    }

    Attempt begin() {
        return new Attempt();
    }

    /** One attempt; used by one thread at a time. */
    final class Attempt {
        private final @Nullable Checksums digest = algorithm == null ? null : Digest.of(algorithm);
        private long count;
        private long reported;

        Attempt() {
            if (length == 0) {
                ended();
            }
        }

        /** Counts bytes about to be handed to the HTTP client; after {@link #seal()} they must not be. */
        void add(byte[] bytes, int offset, int n) throws SealedException {
            if (digest != null) {
                digest.update(bytes, offset, n);
            }
            counted(n);
        }

        /** Counts a buffer about to be handed to the HTTP client; after {@link #seal()} it must not be. */
        void add(ByteBuffer buffer) throws SealedException {
            int n = buffer.remaining();
            if (digest != null) {
                digest.update(buffer);
            }
            counted(n);
        }

        /**
         * The seal's check and the count under one lock, so that {@link #seal()} sees every byte handed over or stops
         * it; the checksum is taken before, and progress reported after, outside it.
         */
        private void counted(int n) throws SealedException {
            synchronized (Sent.this) {
                if (sealed) {
                    throw new SealedException();
                }
                count += n;
                if (count == length) {
                    ended();
                }
            }
            if (progress != null && (count - reported >= REPORT_EVERY || count == length)) {
                reported = count;
                progress.accept(count);
            }
        }

        private void ended() {
            if (digest != null) {
                complete = digest.base64();
            } else if (algorithm == null) {
                complete = "";
            }
        }
    }
}
