package io.github.boundedupload.spi;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongConsumer;

/**
 * Counts the bytes read for progress reports, and fails as soon as the content turns out longer than its limit
 * (declared length or maximum size) instead of letting a reader truncate it silently. What
 * {@link UploadRequest#openStream()} returns; changes when what a storage may rely on while reading changes.
 */
final class MeteredInputStream extends FilterInputStream {

    private static final long REPORT_EVERY = 256 * 1024;

    private final long limit;
    private final String limitName;
    /** Whether the limit is the exact length: then ending before it is an error too. */
    private final boolean exact;
    private final LongConsumer progress;
    private long count;
    private long reported;

    MeteredInputStream(InputStream in, long limit, String limitName, LongConsumer progress) {
        this(in, limit, limitName, false, progress);
    }

    MeteredInputStream(InputStream in, long limit, String limitName, boolean exact, LongConsumer progress) {
        super(in);
        this.limit = limit;
        this.limitName = limitName;
        this.exact = exact;
        this.progress = progress;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            counted(1);
        } else {
            ended();
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            counted(n);
        } else if (n < 0) {
            ended();
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        if (skipped > 0) {
            counted(skipped);
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    private void counted(long n) throws IOException {
        count += n;
        if (count > limit || count == limit && in.read() >= 0) {
            // At the limit, look one byte further: a reader that stops at the declared length would not notice.
            throw new IOException("the content yields more bytes than " + limitName + " (" + limit + ")");
        }
        if (count - reported >= REPORT_EVERY || count == limit) {
            report();
        }
    }

    private void ended() throws IOException {
        report();
        if (exact && count < limit) {
            throw new IOException("the content yielded " + count + " bytes, not " + limitName + " of " + limit);
        }
    }

    private void report() {
        if (count != reported) {
            reported = count;
            progress.accept(count);
        }
    }

    @Override
    public void close() throws IOException {
        report();
        super.close();
    }
}
