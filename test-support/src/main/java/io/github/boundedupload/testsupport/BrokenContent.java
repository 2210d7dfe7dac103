package io.github.boundedupload.testsupport;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.jspecify.annotations.Nullable;

/**
 * Content that goes wrong the way real content does, for {@link FileUploaderContract}: a stream whose disk goes away,
 * a publisher whose source breaks off, a stream that stalls until interrupted; and the checksum a store should report.
 * Changes when the contract checks a new way of failing.
 */
final class BrokenContent {

    private BrokenContent() {
    }

    /** A stream of {@code x} that fails, as a disk going away does, after {@code bytes}. */
    static InputStream failingAfter(int bytes) {
        return new InputStream() {
            private int left = bytes;

            @Override
            public int read() throws IOException {
                if (left-- == 0) {
                    throw new IOException("the disk went away");
                }
                return 'x';
            }
        };
    }

    /** Test data published in buffers, whose source breaks off at buffer {@code failing} (counted from 1). */
    static Flow.Publisher<ByteBuffer> publisherFailingAt(int failing) {
        return subscriber -> TestData.publisher(16, 100_000).subscribe(new Flow.Subscriber<ByteBuffer>() {
            private int buffers;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(subscription);
            }

            @Override
            public void onNext(ByteBuffer buffer) {
                if (++buffers == failing) {
                    subscriber.onError(new IOException("the source broke off"));
                } else if (buffers < failing) {
                    subscriber.onNext(buffer);
                }
            }

            @Override
            public void onError(Throwable failure) {
                subscriber.onError(failure);
            }

            @Override
            public void onComplete() {
                if (buffers < failing) {
                    subscriber.onComplete();
                }
            }
        });
    }

    /**
     * A stream that yields {@code bytesBeforeStall} bytes, then counts {@code stalled} down and stalls until its
     * reading thread is interrupted (it then throws an {@link InterruptedIOException}, as a socket stream does).
     */
    static InputStream stalling(int bytesBeforeStall, CountDownLatch stalled) {
        return new StallingStream(bytesBeforeStall, stalled);
    }

    /** The checksum of bytes in S3's format (Base64 of the big-endian value), or null for an unknown algorithm. */
    static @Nullable String checksum(String algorithm, byte[] bytes) throws NoSuchAlgorithmException {
        Base64.Encoder base64 = Base64.getEncoder();
        switch (algorithm) {
            case "CRC32", "CRC32C" -> {
                Checksum crc = algorithm.equals("CRC32") ? new CRC32() : new CRC32C();
                crc.update(bytes, 0, bytes.length);
                return base64.encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
            }
            case "SHA256" -> {
                return base64.encodeToString(MessageDigest.getInstance("SHA-256").digest(bytes));
            }
            case "SHA1" -> {
                return base64.encodeToString(MessageDigest.getInstance("SHA-1").digest(bytes));
            }
            default -> {
                return null;
            }
        }
    }

    private static final class StallingStream extends InputStream {
        private final CountDownLatch stalled;
        private final CountDownLatch never = new CountDownLatch(1);
        private final InputStream head;

        StallingStream(int bytesBeforeStall, CountDownLatch stalled) {
            this.head = new ByteArrayInputStream(new byte[bytesBeforeStall]);
            this.stalled = stalled;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = head.read(buffer, offset, length);
            if (n > 0) {
                return n;
            }
            stalled.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while stalled");
            }
            throw new IllegalStateException("unreachable");
        }
    }
}
