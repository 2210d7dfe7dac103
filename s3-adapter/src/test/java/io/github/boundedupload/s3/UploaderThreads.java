package io.github.boundedupload.s3;

import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.UploaderConfig;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The kinds of threads an uploader can run on, for the tests of where its work runs ({@link ThreadsIT},
 * {@link BlockingListenerIT}): each {@link ExecutorType}, and an executor the application supplies; and what a thread's
 * name says it is.
 */
enum UploaderThreads {
    AUTO, PLATFORM, VIRTUAL, SUPPLIED;

    /** The name prefix of the supplied executor's threads. */
    static final String SUPPLIED_PREFIX = "app-upload-";

    /** Whether this JVM has them (virtual threads: Java 21 and later). */
    boolean available() {
        return this != VIRTUAL || Runtime.version().feature() >= 21;
    }

    /** The supplied executor of {@code threads} platform threads, or {@code null} for the uploader's own. */
    @Nullable ExecutorService supplied(int threads) {
        if (this != SUPPLIED) {
            return null;
        }
        AtomicInteger made = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, SUPPLIED_PREFIX + made.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Sets the builder's threads: this executor type, or {@code supplied}. */
    UploaderConfig.Builder configure(UploaderConfig.Builder builder, @Nullable ExecutorService supplied) {
        return this == SUPPLIED ? builder.executor(supplied) : builder.executorType(ExecutorType.valueOf(name()));
    }

    /**
     * What a thread is, by its name: the {@code submitter} (the test's thread), the uploader's own ({@code uploader}:
     * a pool or virtual thread of {@code uploader}; {@code timer}), the {@code supplied} executor's, the SDK's
     * ({@code sdk-completion}: the future-completion executor of the S3AsyncClient, {@code sdk-io}: Netty's event loop),
     * or the name itself.
     */
    static String kindOf(String thread, String uploader, String submitter) {
        String own = "bounded-upload-" + uploader + "-";
        if (thread.equals(submitter)) {
            return "submitter";
        } else if (thread.startsWith(own + "timer-")) {
            return "timer";
        } else if (thread.startsWith(own)) {
            return "uploader";
        } else if (thread.startsWith(SUPPLIED_PREFIX)) {
            return "supplied";
        } else if (thread.startsWith("sdk-async-response")) { // the SDK's pool, or BlockingListenerIT's stand-in
            return "sdk-completion";
        } else if (thread.startsWith("aws-java-sdk-NettyEventLoop")) {
            return "sdk-io";
        }
        return thread;
    }
}
