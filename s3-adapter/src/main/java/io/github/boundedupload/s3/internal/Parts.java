package io.github.boundedupload.s3.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Where the parts of a multipart upload come from: slices of whole content, or parts read from a stream.
 * Changes when parts come from a new kind of content.
 */
final class Parts {

    private static final Logger LOG = ObjectUpload.LOG;

    private Parts() {
    }

    /**
     * One part: its number (from 1), where it starts in the content and its length, and its body; no body for a part
     * copied from an object of the bucket ({@link Multipart.CopySource}), whose range it names.
     */
    record Part(int number, long offset, long length, @Nullable Payload payload) {
    }

    /** Where parts come from; called by one pump, one call at a time. */
    interface PartSource extends AutoCloseable {
        /** The next part, or null after the last. */
        CompletableFuture<@Nullable Part> next();

        /** The bytes of all parts handed out so far (the content's length, once the last was). */
        long bytes();

        /** Whether the transfer reports progress (files); streams report it themselves as they are read. */
        boolean reportsProgress();

        @Override
        void close();
    }

    /**
     * Slices of content that is whole already: a file, read from disk by position when sent, or bytes in memory; or
     * ranges of an object of the bucket, copied there (a slicer that gives no body). Nothing buffered.
     */
    static final class SliceParts implements PartSource {
        /** The payload of {@code size} bytes from {@code offset}; null for a range that is copied. */
        interface Slicer {
            @Nullable Payload slice(long offset, long size);
        }

        private final long length;
        private final long partSize;
        private final Slicer slicer;
        private long offset;
        private int number;

        SliceParts(long length, long partSize, Slicer slicer) {
            this.length = length;
            this.partSize = partSize;
            this.slicer = slicer;
        }

        @Override
        public CompletableFuture<@Nullable Part> next() {
            if (offset >= length) {
                return CompletableFuture.completedFuture(null);
            }
            long size = Math.min(partSize, length - offset);
            Part part = new Part(++number, offset, size, slicer.slice(offset, size));
            offset += size;
            return CompletableFuture.completedFuture(part);
        }

        @Override
        public long bytes() {
            return offset;
        }

        @Override
        public boolean reportsProgress() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** Parts read from one stream into memory, one part at a time, on the read executor. */
    static final class StreamParts implements PartSource {
        private final ObjectUpload upload;
        private final InputStream in;
        private final long length;
        private final int partSize;
        byte @Nullable [] first;
        private long offset;
        private int number;

        StreamParts(ObjectUpload upload, InputStream in, long length, long partSize, byte @Nullable [] first) {
            this.upload = upload;
            this.in = in;
            this.length = length;
            this.partSize = (int) Math.min(partSize, Integer.MAX_VALUE - 8);
            this.first = first;
        }

        @Override
        public CompletableFuture<@Nullable Part> next() {
            byte[] head = first;
            if (head != null) {
                first = null;
                return CompletableFuture.completedFuture(part(head));
            }
            return upload.ops.read(() -> {
                byte[] bytes;
                if (length >= 0) {
                    bytes = new byte[(int) Math.min(partSize, length - offset)];
                    int read = readFully(in, bytes);
                    if (read < bytes.length) {
                        throw new IOException("the content ended after " + (offset + read)
                                + " bytes, before its declared length of " + length);
                    }
                } else {
                    bytes = in.readNBytes(partSize);
                }
                if (bytes.length == 0) {
                    return null;
                }
                if (number == ObjectUpload.MAX_PARTS) {
                    throw new IOException("the content is longer than " + ObjectUpload.MAX_PARTS + " parts of " + partSize
                            + " bytes: raise the part size");
                }
                return part(bytes);
            });
        }

        private Part part(byte[] bytes) {
            Part part = new Part(++number, offset, bytes.length, Payload.bytes(bytes, bytes.length,
                    Sent.untracked(bytes.length)));
            offset += bytes.length;
            return part;
        }

        @Override
        public long bytes() {
            return offset;
        }

        @Override
        public boolean reportsProgress() {
            return false;
        }

        @Override
        public void close() {
            Parts.close(in);
        }
    }

    /**
     * Fills the array from the stream, 64 KiB per read: asked for a whole part at once, a stream over a file channel
     * reads through a temporary direct buffer of that size, which the JDK then caches for the thread (direct memory
     * growing by threads × part size).
     */
    static int readFully(InputStream in, byte[] bytes) throws IOException {
        int filled = 0;
        while (filled < bytes.length) {
            int read = in.read(bytes, filled, Math.min(ObjectUpload.READ_STEP, bytes.length - filled));
            if (read < 0) {
                break;
            }
            filled += read;
        }
        return filled;
    }

    static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            LOG.debug("closing content failed", e);
        }
    }
}
