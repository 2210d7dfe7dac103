package io.github.boundedupload.s3.internal;

import io.github.boundedupload.AttachmentContent.StreamOpener;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.BlockingInputStreamAsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The body of one request, for either client: re-readable for every attempt, streamed, and watched by {@link Sent}.
 * A file slice is read from disk by position (no buffer); a stream or a publisher is opened again for every attempt;
 * bytes are already in memory.
 * Each of the four kinds of body gives both faces, the blocking client's and the non-blocking one's, with the same
 * accounting, side by side; the streams they read through are {@link PayloadStreams}. Changes when a kind of body is
 * added or sent otherwise.
 */
abstract class Payload {

    private static final String OCTET_STREAM = "application/octet-stream";
    /** The SDK's chunk size for aws-chunked bodies, and the size of what is read of a file at once. */
    static final int SLICE = 128 * 1024;

    final Sent sent;

    private Payload(Sent sent) {
        this.sent = sent;
    }

    long length() {
        return sent.length();
    }

    /** The body for the blocking client; it reads on the calling thread. */
    final RequestBody sync() {
        if (length() == 0) {
            return RequestBody.empty();
        }
        return RequestBody.fromContentProvider(() -> {
            try {
                return new PayloadStreams.Tracked(open(), length(), sent.begin(), strictEnd());
            } catch (IOException e) {
                throw ContentFailure.passes(e) ? new UncheckedIOException(e) : ContentFailure.of(e);
            }
        }, length(), OCTET_STREAM);
    }

    /** The body for the non-blocking client; blocking reads, if any, run on {@code reads}. */
    final AsyncRequestBody async(Executor reads, Cancellables tasks) {
        return length() == 0 ? observed(AsyncRequestBody.empty()) : asyncBody(reads, tasks);
    }

    abstract AsyncRequestBody asyncBody(Executor reads, Cancellables tasks);

    /**
     * The file this body is, whole, from its first byte to its end; empty for a slice, an empty file, bytes or a
     * stream.
     */
    Optional<Path> wholeFile() {
        return Optional.empty();
    }

    /** Opens the content from its first byte, for one attempt. */
    abstract InputStream open() throws IOException;

    /** Whether the content must end exactly at {@link #length()} (false for a slice of a longer file). */
    boolean strictEnd() {
        return true;
    }

    /**
     * {@code length} bytes of a file from {@code offset}, read from disk by position. With {@code last}, the file must
     * end right there: read through a stream (the blocking client), a file that grew since its length was checked
     * fails the request before its last bytes go out, instead of being stored cut short.
     */
    static Payload fileSlice(Path file, long offset, Sent sent, boolean last) {
        return new Payload(sent) {
            @Override
            InputStream open() throws IOException {
                FileChannel channel = FileChannel.open(file);
                try {
                    // An interruptible channel: interrupting the reading thread closes it, and the upload stops.
                    return Channels.newInputStream(channel.position(offset));
                } catch (IOException | RuntimeException e) {
                    channel.close();
                    throw e;
                }
            }

            @Override
            boolean strictEnd() {
                return last;
            }

            @Override
            Optional<Path> wholeFile() {
                return offset == 0 && last && length() > 0 ? Optional.of(file) : Optional.empty();
            }

            @Override
            AsyncRequestBody asyncBody(Executor reads, Cancellables tasks) {
                // Reads the range and does not look past it: Transfer checks the file's size after the upload. In
                // chunks of the SDK's signed chunk, not its default of 16 KiB: each read completes on a thread of the
                // JDK's file channel pool, and eight reads per chunk sent were eight thread switches (scenario M of
                // docs/benchmarks.md: 215 context switches per upload against 51, and 0.90x the CPU per upload of a
                // plain pool on the same client, which reads 16 KiB at a time).
                return observed(AsyncRequestBody.fromFile(c -> c.path(file).position(offset)
                        .numBytesToRead(length()).chunkSizeInBytes(SLICE)));
            }
        };
    }

    /** Bytes in memory (a buffered part of a stream); not copied. */
    static Payload bytes(byte[] bytes, int length, Sent sent) {
        return bytes(ByteBuffer.wrap(bytes, 0, length), sent);
    }

    /**
     * The bytes from the buffer's position to its limit (content the caller holds in memory, or a buffered part); not
     * copied, and the buffer itself is never moved. Sent without a thread of ours.
     */
    static Payload bytes(ByteBuffer content, Sent sent) {
        ByteBuffer whole = content.slice();
        return new Payload(sent) {
            @Override
            InputStream open() {
                return new PayloadStreams.BufferStream(whole.duplicate());
            }

            @Override
            AsyncRequestBody asyncBody(Executor reads, Cancellables tasks) {
                // Slices, not one buffer: the SDK cuts what it is handed into 128 KiB chunks, copying them all at once
                // (flatMapIterable); one 8 MiB buffer would be copied whole, doubling every part in flight.
                int length = whole.remaining();
                ByteBuffer[] slices = new ByteBuffer[(length + SLICE - 1) / SLICE];
                for (int i = 0; i < slices.length; i++) {
                    slices[i] = whole.slice(i * SLICE, Math.min(SLICE, length - i * SLICE));
                }
                return observed(AsyncRequestBody.fromRemainingByteBuffersUnsafe(slices));
            }
        };
    }

    /**
     * A stream opened anew for every attempt. The non-blocking body reads it on {@code reads}, as fast as the
     * connection takes it; an attempt that starts cancels the read of the one before.
     */
    static Payload stream(StreamOpener opener, Sent sent) {
        return new Payload(sent) {
            @Override
            InputStream open() throws IOException {
                return opener.open();
            }

            @Override
            AsyncRequestBody asyncBody(Executor reads, Cancellables tasks) {
                AtomicReference<@Nullable FutureTask<?>> current = new AtomicReference<>();
                Payload self = this;
                return new AsyncRequestBody() {
                    @Override
                    public Optional<Long> contentLength() {
                        return Optional.of(length());
                    }

                    @Override
                    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
                        BlockingInputStreamAsyncRequestBody body = AsyncRequestBody.forBlockingInputStream(length());
                        body.subscribe(subscriber);
                        FutureTask<Void> pump = new FutureTask<>(() -> {
                            // Opened on the read thread, inside writeInputStream: a failure to open reaches the
                            // subscriber like any read failure.
                            try (InputStream in = new PayloadStreams.Lazy(self, sent.begin())) {
                                body.writeInputStream(in);
                            }
                            return null;
                        }) {
                            @Override
                            protected void done() {
                                tasks.remove(this);
                            }
                        };
                        FutureTask<?> previous = current.getAndSet(pump);
                        if (previous != null) {
                            previous.cancel(true);
                        }
                        tasks.add(pump);
                        reads.execute(pump);
                    }
                };
            }
        };
    }

    /**
     * Content published as buffers: sent as the publisher emits them, without a thread of ours, each attempt
     * subscribing anew and failing when the content is longer or shorter than its length. The blocking client reads it
     * through {@code stream}, which opens the content as a stream.
     */
    static Payload published(Flow.Publisher<ByteBuffer> content, StreamOpener stream, Sent sent) {
        return new Payload(sent) {
            @Override
            InputStream open() throws IOException {
                return stream.open();
            }

            @Override
            AsyncRequestBody asyncBody(Executor reads, Cancellables tasks) {
                return observed(new Exact(content, length()));
            }
        };
    }

    /**
     * Watches the buffers the HTTP client takes. Whatever the body's publisher fails with is its content's failure (a
     * file gone or changed, a lie about the length, a source that broke off), which no retry fixes: the SDK is told so
     * ({@link ContentFailure}).
     */
    final AsyncRequestBody observed(AsyncRequestBody body) {
        return new AsyncRequestBody() {
            @Override
            public Optional<Long> contentLength() {
                return body.contentLength();
            }

            @Override
            public String contentType() {
                return body.contentType();
            }

            @Override
            public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
                Sent.Attempt attempt = sent.begin();
                body.subscribe(new Subscriber<ByteBuffer>() {
                    private @Nullable Subscription upstream;
                    private boolean failed;

                    @Override
                    public void onSubscribe(Subscription subscription) {
                        upstream = subscription;
                        subscriber.onSubscribe(subscription);
                    }

                    @Override
                    public void onNext(ByteBuffer buffer) {
                        if (failed) {
                            return;
                        }
                        try {
                            attempt.add(buffer);
                        } catch (Sent.SealedException e) {
                            // The upload was given up on: this attempt ends here, and its last bytes never go out.
                            failed = true;
                            Subscription subscription = upstream;
                            if (subscription != null) {
                                subscription.cancel();
                            }
                            subscriber.onError(ContentFailure.of(e));
                            return;
                        }
                        subscriber.onNext(buffer);
                    }

                    @Override
                    public void onError(Throwable failure) {
                        if (!failed) {
                            subscriber.onError(ContentFailure.signal(failure));
                        }
                    }

                    @Override
                    public void onComplete() {
                        if (!failed) {
                            subscriber.onComplete();
                        }
                    }
                });
            }
        };
    }
}
