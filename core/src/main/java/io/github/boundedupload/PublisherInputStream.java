package io.github.boundedupload;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A publisher of buffers read as a stream, for storages that read streams: it asks for {@link #PREFETCH} buffers, and
 * for one more each time the reader takes one, so that at most that many are held at once however slowly it reads. A
 * publisher that sends more than it was asked for breaks the bound and fails the stream; closing the stream cancels
 * the subscription. What {@link AttachmentContent#ofPublisher} opens; changes when published content is read otherwise.
 */
final class PublisherInputStream extends InputStream implements Flow.Subscriber<ByteBuffer> {

    /** Buffers asked for ahead of the reader: enough to read while the next one comes, few enough to bound memory. */
    static final int PREFETCH = 4;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<ByteBuffer> received = new ArrayDeque<>();
    private Flow.@Nullable Subscription subscription;
    private @Nullable ByteBuffer current;
    private @Nullable Throwable failure;
    private boolean completed;
    private boolean closed;

    private PublisherInputStream() {
    }

    /**
     * Subscribes to the publisher; buffers are asked for at once.
     *
     * @param publisher the content
     * @return the stream; closing it cancels the subscription
     */
    static PublisherInputStream of(Flow.Publisher<ByteBuffer> publisher) {
        PublisherInputStream stream = new PublisherInputStream();
        publisher.subscribe(stream);
        return stream;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        Objects.requireNonNull(subscription, "subscription");
        boolean cancel;
        lock.lock();
        try {
            cancel = this.subscription != null || closed;
            if (!cancel) {
                this.subscription = subscription;
            }
        } finally {
            lock.unlock();
        }
        if (cancel) {
            subscription.cancel();
        } else {
            subscription.request(PREFETCH);
        }
    }

    @Override
    public void onNext(ByteBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        Flow.@Nullable Subscription overflowed = null;
        lock.lock();
        try {
            if (closed || completed || failure != null) {
                return;
            }
            if (received.size() == PREFETCH) {
                failure = new IOException("the content's publisher sent more buffers than it was asked for");
                overflowed = subscription;
                received.clear();
            } else {
                received.add(buffer);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (overflowed != null) {
            overflowed.cancel();
        }
    }

    @Override
    public void onError(Throwable error) {
        lock.lock();
        try {
            if (failure == null && !completed) {
                failure = error;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onComplete() {
        lock.lock();
        try {
            completed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length == 0) {
            return 0;
        }
        ByteBuffer buffer = next();
        if (buffer == null) {
            return -1;
        }
        int n = Math.min(length, buffer.remaining());
        buffer.get(bytes, offset, n);
        return n;
    }

    /** The buffer to read from, waiting for the next one when the current one is read; null at the end. */
    private @Nullable ByteBuffer next() throws IOException {
        ByteBuffer buffer = current;
        while (buffer == null || !buffer.hasRemaining()) { // (empty buffers are allowed: move on to the next one)
            buffer = take();
            current = buffer;
            if (buffer == null) {
                return null;
            }
        }
        return buffer;
    }

    /** Takes the next buffer the publisher sent, asking it for one more; null at the end. */
    private @Nullable ByteBuffer take() throws IOException {
        ByteBuffer head;
        Flow.@Nullable Subscription more;
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    throw new IOException("the stream is closed");
                }
                if (failure != null) {
                    throw failure instanceof IOException io ? new IOException(io.getMessage(), io)
                            : new IOException("the content's publisher failed: " + failure, failure);
                }
                head = received.poll();
                if (head != null) {
                    more = subscription;
                    break;
                }
                if (completed) {
                    return null;
                }
                try {
                    changed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for the content's publisher");
                }
            }
        } finally {
            lock.unlock();
        }
        if (more != null) {
            more.request(1);
        }
        return head;
    }

    @Override
    public void close() {
        Flow.@Nullable Subscription cancel;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            cancel = completed || failure != null ? null : subscription;
            received.clear();
            current = null;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (cancel != null) {
            cancel.cancel();
        }
    }
}
