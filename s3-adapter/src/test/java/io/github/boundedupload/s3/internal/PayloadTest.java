package io.github.boundedupload.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.support.Checksums;
import io.github.boundedupload.testsupport.TestData;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;

/** What the non-blocking client is handed of a file: its chunks, and what {@link Sent} learns of them. */
class PayloadTest {

    /**
     * Regression (scenario M of docs/benchmarks.md): the file was read in the SDK's default chunks of 16 KiB, each read
     * completing on a thread of the JDK's file channel pool, eight thread switches per chunk the SDK signs and sends
     * (215 context switches per upload, against 51 in chunks of the signed chunk's size).
     */
    @Test
    void aFileGoesToTheNonBlockingClientInChunksOfTheSignedChunkAndIsCountedWhole(@TempDir Path dir)
            throws Exception {
        int length = 2 * Payload.SLICE + 12_345;
        Path file = TestData.file(dir.resolve("f.bin"), 3, length);
        Sent sent = Sent.tracked(length, ChecksumAlgorithm.CRC32, null);
        AsyncRequestBody body = Payload.fileSlice(file, 0, sent, true).async(Runnable::run, new Cancellables());

        List<Integer> chunks = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        body.subscribe(new Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer buffer) {
                chunks.add(buffer.remaining());
            }

            @Override
            public void onError(Throwable failure) {
                done.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        done.get(1, TimeUnit.MINUTES);

        assertThat(chunks).containsExactly(Payload.SLICE, Payload.SLICE, 12_345);
        assertThat(sent.fullySent()).isTrue();
        Checksums crc = Checksums.of("CRC32");
        byte[] bytes = Files.readAllBytes(file);
        crc.update(bytes, 0, bytes.length);
        assertThat(sent.checksum()).isEqualTo(crc.base64());
    }
}
