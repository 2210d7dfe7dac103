package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.boundedupload.local.LocalFileUploader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Content published as buffers ({@link AttachmentContent#ofPublisher}), read by storages that read streams: the bytes
 * in order, a few buffers held at a time however slowly the stream is read, opened anew for every attempt, and every
 * way the publisher can misbehave a read failure rather than content cut short.
 */
class PublishedContentTest {

    private final ExecutorService emitter = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        emitter.shutdownNow();
    }

    /**
     * Emits {@code count} buffers of {@code size} bytes (byte i of the content is {@code (byte) i}) on its own thread,
     * as many as asked for, and records the most it was ever asked for ahead of what it had emitted.
     */
    final class Source implements Flow.Publisher<ByteBuffer> {
        final int count;
        final int size;
        final AtomicInteger subscriptions = new AtomicInteger();
        final AtomicLong mostOutstanding = new AtomicLong();
        final AtomicBoolean cancelled = new AtomicBoolean();

        Source(int count, int size) {
            this.count = count;
            this.size = size;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            subscriptions.incrementAndGet();
            AtomicLong outstanding = new AtomicLong();
            AtomicInteger emitted = new AtomicInteger();
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    mostOutstanding.accumulateAndGet(outstanding.addAndGet(n), Math::max);
                    emitter.execute(this::emit);
                }

                private void emit() {
                    while (outstanding.get() > 0 && !cancelled.get() && emitted.get() < count) {
                        int index = emitted.getAndIncrement();
                        byte[] bytes = new byte[size];
                        for (int i = 0; i < size; i++) {
                            bytes[i] = (byte) (index * size + i);
                        }
                        outstanding.decrementAndGet();
                        subscriber.onNext(ByteBuffer.wrap(bytes));
                    }
                    if (emitted.get() == count && !cancelled.get() && emitted.getAndIncrement() == count) {
                        subscriber.onComplete();
                    }
                }

                @Override
                public void cancel() {
                    cancelled.set(true);
                }
            });
        }
    }

    private static byte[] expected(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }

    @Test
    void aStreamGetsTheBytesInOrderWithAFewBuffersHeldHoweverSlowlyItReads() throws Exception {
        Source source = new Source(200, 1000);
        AttachmentContent content = AttachmentContent.ofPublisher(() -> source, 200_000);
        try (InputStream in = content.openStream()) {
            byte[] read = new byte[200_000];
            int filled = 0;
            while (filled < read.length) {
                // One byte at a time for a while: the publisher could send everything meanwhile, and must not be asked.
                int n = filled < 5000 ? in.read(read, filled, 1) : in.read(read, filled, read.length - filled);
                assertThat(n).isPositive();
                filled += n;
            }
            assertThat(in.read()).isEqualTo(-1);
            assertThat(read).isEqualTo(expected(200_000));
        }
        assertThat(source.mostOutstanding.get()).as("buffers asked for ahead of the reader").isLessThanOrEqualTo(4);
        assertThat(content.length()).hasValue(200_000);
    }

    @Test
    void everyAttemptOpensThePublisherAnew() throws Exception {
        Source source = new Source(3, 10);
        AttachmentContent content = AttachmentContent.ofPublisher(() -> source, 30);
        for (int attempt = 1; attempt <= 2; attempt++) {
            try (InputStream in = content.openStream()) {
                assertThat(in.readAllBytes()).isEqualTo(expected(30));
            }
        }
        assertThat(source.subscriptions).hasValue(2);
        assertThat(content.publisher()).isPresent();
        assertThat(AttachmentContent.ofBytes(new byte[1]).publisher()).isEmpty();
    }

    @Test
    void closingTheStreamCancelsTheSubscription() throws Exception {
        Source source = new Source(1000, 100);
        try (InputStream in = AttachmentContent.ofPublisher(() -> source, 100_000).openStream()) {
            assertThat(in.read(new byte[10])).isEqualTo(10);
        }
        await().untilTrue(source.cancelled);
    }

    @Test
    void aPublisherThatFailsFailsTheRead() throws Exception {
        Flow.Publisher<ByteBuffer> failing = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                subscriber.onNext(ByteBuffer.wrap(new byte[] {1, 2, 3}));
                subscriber.onError(new IllegalStateException("the client went away"));
            }

            @Override
            public void cancel() {
            }
        });
        try (InputStream in = AttachmentContent.ofPublisher(() -> failing, 10).openStream()) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("the client went away");
        }
    }

    @Test
    void aPublisherThatSendsMoreThanItWasAskedForFailsTheRead() throws Exception {
        AtomicReference<Flow.Subscription> asked = new AtomicReference<>();
        Flow.Publisher<ByteBuffer> flooding = subscriber -> {
            Flow.Subscription subscription = new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                    asked.set(null);
                }
            };
            asked.set(subscription);
            subscriber.onSubscribe(subscription);
            for (int i = 0; i < 100; i++) {
                subscriber.onNext(ByteBuffer.wrap(new byte[1000]));
            }
        };
        try (InputStream in = AttachmentContent.ofPublisher(() -> flooding, 100_000).openStream()) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("more buffers than it was asked for");
        }
        assertThat(asked.get()).as("the flooding subscription is cancelled").isNull();
    }

    @Test
    void anInterruptedReaderStopsWaiting() throws Exception {
        Flow.Publisher<ByteBuffer> silent = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
            }
        });
        try (InputStream in = AttachmentContent.ofPublisher(() -> silent, 10).openStream()) {
            Thread.currentThread().interrupt();
            assertThatThrownBy(in::read).isInstanceOf(InterruptedIOException.class);
            assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
        }
    }

    @Test
    void publishedContentIsStoredByAStorageThatReadsStreams(@TempDir Path root) throws Exception {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(
                new LocalFileUploader(root))) {
            BatchResult result = uploader.uploadAll(List.of(
                    Attachment.of("published.bin", AttachmentContent.ofPublisher(() -> new Source(50, 1000), 50_000))));
            assertThat(Files.readAllBytes(root.resolve(result.storedObjects().get(0).key())))
                    .isEqualTo(expected(50_000));
        }
    }

    @Test
    void publishedContentShorterThanDeclaredFailsItsBatchAndKeepsNothing(@TempDir Path root) throws Exception {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(
                new LocalFileUploader(root))) {
            assertThatThrownBy(() -> uploader.uploadAll(List.of(
                    Attachment.of("whole.bin", AttachmentContent.ofPublisher(() -> new Source(5, 10), 50)),
                    Attachment.of("short.bin", AttachmentContent.ofPublisher(() -> new Source(1, 10), 11)))))
                    .isInstanceOf(BatchFailedException.class).hasMessageContaining("short.bin");
        }
        try (Stream<Path> stored = Files.walk(root)) {
            assertThat(stored.filter(Files::isRegularFile)).as("nothing kept of a failed batch").isEmpty();
        }
    }

    @Test
    void aNegativeLengthIsRefused() {
        assertThatThrownBy(() -> AttachmentContent.ofPublisher(() -> new Source(0, 0), -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
