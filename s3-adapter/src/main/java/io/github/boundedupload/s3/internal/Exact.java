package io.github.boundedupload.s3.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.Flow;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;

/**
 * Published content as a request body of exactly its declared length: each subscription (an attempt) subscribes to the
 * content anew, and fails when it emits more or fewer bytes. The buffer that reaches the length is held back until the
 * content completes, so that content which goes on past its length fails the request before its last byte goes out,
 * instead of being stored cut short. Changes when what published content must be, to be sent, changes.
 */
final class Exact implements AsyncRequestBody {

    private final Flow.Publisher<ByteBuffer> content;
    private final long length;

    Exact(Flow.Publisher<ByteBuffer> content, long length) {
        this.content = content;
        this.length = length;
    }

    @Override
    public Optional<Long> contentLength() {
        return Optional.of(length);
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> downstream) {
        FlowAdapters.toPublisher(content).subscribe(new Checked(downstream, length));
    }

    /** Counts what goes through, one subscription's worth. Signals arrive serially (rule 1.3). */
    private static final class Checked implements Subscriber<ByteBuffer> {
        private final Subscriber<? super ByteBuffer> downstream;
        private final long length;
        private @Nullable Subscription upstream;
        private @Nullable ByteBuffer last;
        private long count;
        private boolean done;

        Checked(Subscriber<? super ByteBuffer> downstream, long length) {
            this.downstream = downstream;
            this.length = length;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(subscription);
        }

        @Override
        public void onNext(ByteBuffer buffer) {
            if (done) {
                return;
            }
            if (!buffer.hasRemaining() && last != null) {
                request(1); // an empty buffer says nothing: still waiting for the end
                return;
            }
            count += buffer.remaining();
            if (count > length || last != null) {
                fail(new IOException("the content goes on past its length of " + length + " bytes"), true);
                return;
            }
            if (count == length) {
                // Held back until the content says it has ended; the one more buffer asked for here would show that it
                // has not (the downstream's demand still counts this one, which it gets at the end).
                last = buffer;
                request(1);
                return;
            }
            downstream.onNext(buffer);
        }

        @Override
        public void onError(Throwable failure) {
            if (!done) {
                done = true;
                downstream.onError(failure);
            }
        }

        @Override
        public void onComplete() {
            if (done) {
                return;
            }
            if (count < length) {
                fail(new IOException("the content ended after " + count + " bytes, before its length of " + length),
                        false);
                return;
            }
            done = true;
            ByteBuffer held = last;
            last = null;
            if (held != null) {
                downstream.onNext(held);
            }
            downstream.onComplete();
        }

        private void request(long n) {
            Subscription subscription = upstream;
            if (subscription != null) {
                subscription.request(n);
            }
        }

        private void fail(IOException failure, boolean cancel) {
            done = true;
            last = null;
            Subscription subscription = upstream;
            if (cancel && subscription != null) {
                subscription.cancel();
            }
            downstream.onError(failure);
        }
    }
}
