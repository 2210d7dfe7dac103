package io.github.boundedupload.s3.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The streams a {@link Payload} is read through, for one attempt: its length kept exactly (never read past, never
 * ended early), its bytes counted by {@link Sent} as they go out, opened lazily so that a failure to open is a
 * failure to read. What goes wrong with the content while it is read is a {@link ContentFailure}, which the SDK does
 * not retry. Changes when what a body's stream guarantees changes.
 */
final class PayloadStreams {

    private PayloadStreams() {
    }

    /**
     * A payload's stream for one attempt: never reads past the length (a file slice), fails when the content ends
     * early, and, for whole content, when it goes on past its length.
     */
    static final class Tracked extends InputStream {
        private static final int TRANSFER_BUFFER = 16 * 1024;

        private final InputStream in;
        private final Sent.Attempt attempt;
        private final boolean strictEnd;
        private final long length;
        private long left;

        Tracked(InputStream in, long length, Sent.Attempt attempt, boolean strictEnd) {
            this.in = in;
            this.length = length;
            this.left = length;
            this.attempt = attempt;
            this.strictEnd = strictEnd;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int n) throws IOException {
            try {
                return checkedRead(buffer, offset, n);
            } catch (IOException e) {
                if (ContentFailure.passes(e)) {
                    throw e;
                }
                throw ContentFailure.of(e);
            }
        }

        private int checkedRead(byte[] buffer, int offset, int n) throws IOException {
            if (n == 0) {
                return 0;
            }
            if (left == 0) {
                if (strictEnd && in.read() >= 0) {
                    throw new IOException("the content goes on past its length of " + length + " bytes");
                }
                return -1;
            }
            int read = in.read(buffer, offset, (int) Math.min(n, left));
            if (read < 0) {
                throw new IOException("the content ended after " + (length - left) + " bytes, before its length of "
                        + length);
            }
            left -= read;
            if (left == 0 && strictEnd && in.read() >= 0) {
                // Now, before the last bytes go out: a client that stops reading at the length would never look.
                throw new IOException("the content goes on past its length of " + length + " bytes");
            }
            attempt.add(buffer, offset, read);
            return read;
        }

        /**
         * In buffers of at most the JDK's 16 KiB, and no larger than what is left: a small body (an attachment of a
         * few KiB held in memory) is not copied through a buffer many times its size.
         */
        @Override
        public long transferTo(OutputStream out) throws IOException {
            byte[] buffer = new byte[(int) Math.min(TRANSFER_BUFFER, left + 1)];
            long transferred = 0;
            for (int n; (n = read(buffer, 0, buffer.length)) >= 0; transferred += n) {
                out.write(buffer, 0, n);
            }
            return transferred;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Opens the payload's stream on first read, so that a failure to open is a read failure. */
    static final class Lazy extends InputStream {
        private final Payload payload;
        private final Sent.Attempt attempt;
        private @Nullable InputStream in;

        Lazy(Payload payload, Sent.Attempt attempt) {
            this.payload = payload;
            this.attempt = attempt;
        }

        private InputStream in() throws IOException {
            if (in == null) {
                InputStream opened;
                try {
                    opened = payload.open();
                } catch (IOException e) {
                    if (ContentFailure.passes(e)) {
                        throw e;
                    }
                    throw ContentFailure.of(e);
                }
                in = new Tracked(opened, payload.length(), attempt, payload.strictEnd());
            }
            return in;
        }

        @Override
        public int read() throws IOException {
            return in().read();
        }

        @Override
        public int read(byte[] buffer, int offset, int n) throws IOException {
            return in().read(buffer, offset, n);
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
            }
        }
    }

    /** A stream over a buffer of its own (read-only buffers have no array to wrap). */
    static final class BufferStream extends InputStream {
        private final ByteBuffer buffer;

        BufferStream(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public int read() {
            return buffer.hasRemaining() ? buffer.get() & 0xFF : -1;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, bytes.length);
            if (length == 0) {
                return 0;
            }
            if (!buffer.hasRemaining()) {
                return -1;
            }
            int n = Math.min(length, buffer.remaining());
            buffer.get(bytes, offset, n);
            return n;
        }

        @Override
        public int available() {
            return buffer.remaining();
        }
    }
}
