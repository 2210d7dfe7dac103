package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

class ExecutorTypeTest {

    private final FakeStorage storage = new FakeStorage();

    private static boolean isVirtual(Thread thread) throws Exception {
        Method isVirtual = Thread.class.getMethod("isVirtual");
        return (boolean) isVirtual.invoke(thread);
    }

    private void uploadWith(ExecutorType type) {
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("type").executorType(type).build())) {
            uploader.uploadAll(Batches.of("v", 8));
        }
        assertThat(storage.threads).hasSize(8)
                .allSatisfy(t -> assertThat(t.getName()).startsWith("bounded-upload-type-"));
    }

    /** Daemon threads: a call that never returns, given up on at close(), cannot keep the JVM alive (issue 28). */
    @Test
    void platformThreadsAreNamedAfterTheUploaderAndAreDaemons() {
        uploadWith(ExecutorType.PLATFORM);

        assertThat(storage.threads).allSatisfy(t -> assertThat(t.isDaemon()).isTrue());
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreadsAreUsedWhenAskedFor() throws Exception {
        uploadWith(ExecutorType.VIRTUAL);

        for (Thread thread : storage.threads) {
            assertThat(isVirtual(thread)).as(thread.getName()).isTrue();
        }
    }

    /** On the SDK's blocking clients virtual threads cost 5-8 % more CPU per upload (issue 26's decision). */
    @Test
    void autoMeansPlatformThreadsForABlockingStorageOnEveryJava() {
        uploadWith(ExecutorType.AUTO);

        assertThat(storage.threads).allSatisfy(t -> assertThat(t.getClass()).isEqualTo(Thread.class));
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_24)
    void autoMeansVirtualThreadsForANonBlockingStorageWhereTheyNoLongerPinTheirCarrier() throws Exception {
        for (Thread thread : asyncUploadWith(ExecutorType.AUTO)) {
            assertThat(isVirtual(thread)).as(thread.getName()).isTrue();
        }
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_23)
    void autoMeansPlatformThreadsForANonBlockingStorageBeforeJava24() {
        assertThat(asyncUploadWith(ExecutorType.AUTO))
                .allSatisfy(t -> assertThat(t.getClass()).isEqualTo(Thread.class));
    }

    /** The threads a non-blocking storage was called on (it answers at once). */
    private static List<Thread> asyncUploadWith(ExecutorType type) {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        AsyncFileUploader recording = new AsyncFileUploader() {
            @Override
            public CompletableFuture<StoredObject> upload(UploadRequest request) {
                threads.add(Thread.currentThread());
                return CompletableFuture.completedFuture(StoredObject.builder(request.key(), 1).build());
            }

            @Override
            public CompletableFuture<Void> delete(String key) {
                return CompletableFuture.completedFuture(null);
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(recording,
                UploaderConfig.builder().name("async-type").executorType(type).build())) {
            uploader.uploadAll(Batches.of("a", 8));
        }
        assertThat(threads).hasSize(8).allSatisfy(t -> assertThat(t.getName()).startsWith("bounded-upload-async-type-"));
        return threads;
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsAreRefusedClearlyWhereTheJvmHasNone() {
        assertThatThrownBy(() -> UploaderConfig.builder().executorType(ExecutorType.VIRTUAL).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("executorType");
                    assertThat(e).hasMessageMatching("executorType must be AUTO or PLATFORM on Java \\d+ \\(VIRTUAL"
                            + " needs Java 21 or later\\), was VIRTUAL");
                });
    }
}
