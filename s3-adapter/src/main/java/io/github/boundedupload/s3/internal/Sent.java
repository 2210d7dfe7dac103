package io.github.boundedupload.s3.internal;

import java.nio.ByteBuffer;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;

/**
 * What the HTTP client took of a body, attempt by attempt (the SDK re-reads the body for every retry): whether any
 * attempt took every byte, and the checksum of those bytes. When a request then fails without an answer, that says
 * whether S3 may have stored the object, and how to recognise it. Also reports progress, where asked to.
 */
final class Sent {

    private static final long REPORT_EVERY = 256 * 1024;

    private final long length;
    private final @Nullable ChecksumAlgorithm algorithm;
    private final @Nullable LongConsumer progress;
    private volatile @Nullable String complete;

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

    /** Whether some attempt handed every byte to the HTTP client. */
    boolean fullySent() {
        return complete != null;
    }

    /** The checksum of the bytes of an attempt that sent them all, or null. */
    @Nullable String checksum() {
        return complete;
    }

    Attempt begin() {
        return new Attempt();
    }

    /** One attempt; used by one thread at a time. */
    final class Attempt {
        private final @Nullable Digest digest = algorithm == null ? null : Digest.of(algorithm);
        private long count;
        private long reported;

        Attempt() {
            if (length == 0) {
                ended();
            }
        }

        void add(byte[] bytes, int offset, int n) {
            if (digest != null) {
                digest.update(bytes, offset, n);
            }
            counted(n);
        }

        void add(ByteBuffer buffer) {
            int n = buffer.remaining();
            if (digest != null) {
                digest.update(buffer);
            }
            counted(n);
        }

        private void counted(int n) {
            count += n;
            if (progress != null && (count - reported >= REPORT_EVERY || count == length)) {
                reported = count;
                progress.accept(count);
            }
            if (count == length) {
                ended();
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
