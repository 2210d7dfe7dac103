package io.github.boundedupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import java.lang.reflect.Method;
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

    @Test
    @EnabledForJreRange(min = JRE.JAVA_24)
    void autoMeansVirtualThreadsWhereTheyNoLongerPinTheirCarrier() throws Exception {
        uploadWith(ExecutorType.AUTO);

        for (Thread thread : storage.threads) {
            assertThat(isVirtual(thread)).as(thread.getName()).isTrue();
        }
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_23)
    void autoMeansPlatformThreadsBeforeJava24() {
        uploadWith(ExecutorType.AUTO);

        assertThat(storage.threads).allSatisfy(t -> assertThat(t.getClass()).isEqualTo(Thread.class));
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
