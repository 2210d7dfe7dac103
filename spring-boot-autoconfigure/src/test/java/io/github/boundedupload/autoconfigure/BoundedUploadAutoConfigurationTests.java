package io.github.boundedupload.autoconfigure;

import static io.github.boundedupload.autoconfigure.TestSupport.isVirtual;
import static io.github.boundedupload.autoconfigure.TestSupport.uploadOne;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.ExecutorType;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.RejectionPolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.autoconfigure.TestSupport.RecordingStorage;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.ContextPropagator;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.spi.UploaderEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.task.TaskDecorator;

class BoundedUploadAutoConfigurationTests {

    @TempDir
    Path root;

    private ApplicationContextRunner runner() {
        return TestSupport.runner(root);
    }

    @AfterEach
    void clearMdc() {
        MDC.clear();
    }

    // ---- defaults and binding ---------------------------------------------------------------------------------

    @Test
    void defaultsMatchTheCoreDefaultsAndStoreLocally() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(ConcurrentAttachmentUploader.class)
                    .hasSingleBean(LocalFileUploader.class).hasSingleBean(UploaderConfig.class);
            UploaderConfig config = context.getBean(ConcurrentAttachmentUploader.class).config();
            UploaderConfig defaults = UploaderConfig.defaults();
            assertThat(config.name()).isEqualTo(defaults.name());
            assertThat(config.maxConcurrentUploads()).isEqualTo(defaults.maxConcurrentUploads());
            assertThat(config.maxConcurrentUploadsPerBatch()).isEqualTo(defaults.maxConcurrentUploadsPerBatch());
            assertThat(config.maxQueuedUploads()).isEqualTo(defaults.maxQueuedUploads());
            assertThat(config.maxBytesInFlight()).isEqualTo(defaults.maxBytesInFlight());
            assertThat(config.maxAttachmentSize()).isEqualTo(defaults.maxAttachmentSize());
            assertThat(config.maxAttachmentsPerBatch()).isEqualTo(defaults.maxAttachmentsPerBatch());
            assertThat(config.rejectionPolicy()).isEqualTo(defaults.rejectionPolicy());
            assertThat(config.blockTimeout()).isEqualTo(defaults.blockTimeout());
            assertThat(config.uploadTimeout()).isEqualTo(defaults.uploadTimeout());
            assertThat(config.batchTimeout()).isEqualTo(defaults.batchTimeout());
            // Shorter than the core's, so that the drain in Spring Boot's shutdown fits in 30 s (UploaderDrainTests).
            assertThat(config.shutdownGracePeriod()).isEqualTo(Duration.ofSeconds(10));
            assertThat(config.stopTimeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(config.failurePolicy()).isEqualTo(defaults.failurePolicy());
            assertThat(config.keepUnknownOutcomes()).isEqualTo(defaults.keepUnknownOutcomes()).isFalse();
            assertThat(config.executorType()).isEqualTo(defaults.executorType());
            assertThat(config.executor()).isEmpty();
            // The MDC, and the thread-locals of Micrometer's context-propagation, which these tests have on their
            // class path as tracing applications do (what the two carry: the test below).
            assertThat(config.contextPropagator()).isNotSameAs(ContextPropagator.mdc())
                    .isNotSameAs(ContextPropagator.none());
            assertThat(config.listeners()).isEmpty();

            assertThat(context.getBean(LocalFileUploader.class).root()).isEqualTo(root.toRealPath());
            BatchResult result = uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            String key = result.storedObjects().get(0).key();
            assertThat(key).matches("\\d{4}/\\d{2}/\\d{2}/[0-9a-f-]{36}-hello\\.txt");
            assertThat(root.resolve(key)).hasContent("hello");
        });
    }

    @Test
    void everyPropertyBinds() {
        Path elsewhere = root.resolve("elsewhere");
        runner().withPropertyValues("bounded-upload.name=attachments", "bounded-upload.max-concurrent-uploads=12",
                "bounded-upload.max-concurrent-uploads-per-batch=3", "bounded-upload.max-queued-uploads=40",
                "bounded-upload.max-bytes-in-flight=8MB", "bounded-upload.max-attachment-size=2MB",
                "bounded-upload.max-attachments-per-batch=20", "bounded-upload.rejection-policy=caller-runs",
                "bounded-upload.block-timeout=3s", "bounded-upload.upload-timeout=1m",
                "bounded-upload.batch-timeout=2m", "bounded-upload.shutdown-grace-period=0s",
                "bounded-upload.failure-policy=collect", "bounded-upload.keep-unknown-outcomes=true",
                "bounded-upload.key-prefix=studies",
                "bounded-upload.executor.type=platform", "bounded-upload.mdc.enabled=false",
                "bounded-upload.local.root=" + elsewhere).run(context -> {
                    BoundedUploadProperties properties = context.getBean(BoundedUploadProperties.class);
                    assertThat(properties.isEnabled()).isTrue();
                    UploaderConfig config = context.getBean(ConcurrentAttachmentUploader.class).config();
                    assertThat(config.name()).isEqualTo("attachments");
                    assertThat(config.maxConcurrentUploads()).isEqualTo(12);
                    assertThat(config.maxConcurrentUploadsPerBatch()).isEqualTo(3);
                    assertThat(config.maxQueuedUploads()).isEqualTo(40);
                    assertThat(config.maxBytesInFlight()).isEqualTo(8L << 20);
                    assertThat(config.maxAttachmentSize()).isEqualTo(2L << 20);
                    assertThat(config.maxAttachmentsPerBatch()).isEqualTo(20);
                    assertThat(config.rejectionPolicy()).isEqualTo(RejectionPolicy.CALLER_RUNS);
                    assertThat(config.blockTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(config.uploadTimeout()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(config.batchTimeout()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(config.shutdownGracePeriod()).isZero();
                    assertThat(config.failurePolicy()).isEqualTo(FailurePolicy.COLLECT);
                    assertThat(config.keepUnknownOutcomes()).isTrue();
                    assertThat(config.executorType()).isEqualTo(ExecutorType.PLATFORM);
                    assertThat(config.contextPropagator()).isNotSameAs(ContextPropagator.mdc());
                    assertThat(context.getBean(LocalFileUploader.class).root()).isEqualTo(elsewhere.toRealPath());
                    String key = uploadOne(context.getBean(ConcurrentAttachmentUploader.class)).storedObjects()
                            .get(0).key();
                    assertThat(key).startsWith("studies/");
                    assertThat(elsewhere.resolve(key)).exists();
                });
    }

    @Test
    void adaptiveConcurrencyStartsAtItsInitialLimitAndKeepsTheMaximum() {
        runner().withPropertyValues("bounded-upload.adaptive-concurrency.enabled=true",
                "bounded-upload.adaptive-concurrency.initial-limit=4").run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    assertThat(uploader.config().concurrencyLimit()).isPresent();
                    assertThat(uploader.stats().concurrencyLimit()).isEqualTo(4);
                    assertThat(uploader.config().maxConcurrentUploads())
                            .isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS);
                    assertThat(uploadOne(uploader).allStored()).isTrue();
                });
        // An initial limit above the maximum starts at the maximum.
        runner().withPropertyValues("bounded-upload.adaptive-concurrency.enabled=true",
                "bounded-upload.max-concurrent-uploads=2", "bounded-upload.max-concurrent-uploads-per-batch=2")
                .run(context -> assertThat(context.getBean(ConcurrentAttachmentUploader.class).stats()
                        .concurrencyLimit()).isEqualTo(2));
        // Off by default: no adaptive limit.
        runner().run(context -> assertThat(context.getBean(ConcurrentAttachmentUploader.class).config()
                .concurrencyLimit()).isEmpty());
    }

    /**
     * Regression: {@code bounded-upload.max-concurrent-uploads=8} alone failed start-up ("must be from 1 to
     * bounded-upload.max-concurrent-uploads (8), was 16"): the per-batch property had a default of its own. Unset, it is
     * the core's, which follows a smaller overall bound; set, it is checked against it.
     */
    @Test
    void aSmallerMaxConcurrentUploadsAloneIsEnoughAndThePerBatchBoundFollowsIt() {
        runner().withPropertyValues("bounded-upload.max-concurrent-uploads=8").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ConcurrentAttachmentUploader.class).config().maxConcurrentUploadsPerBatch())
                    .isEqualTo(8);
        });
        runner().withPropertyValues("bounded-upload.max-concurrent-uploads=8",
                "bounded-upload.max-concurrent-uploads-per-batch=9")
                .run(context -> assertThat(context).hasFailed());
    }

    /**
     * Storage is never chosen by accident: without a bucket, a local root or a storage bean (a key forgotten or
     * misspelt), start-up fails with one line naming what to set, instead of storing where a reboot deletes it.
     */
    @Test
    void withoutAnyStorageStartUpFailsWithOneLineNamingWhatToSet() {
        new ApplicationContextRunner().withConfiguration(TestSupport.boundedUpload()).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("bounded-upload has no storage: set "
                    + "bounded-upload.s3.bucket (S3) or bounded-upload.local.root (a directory on the local disk), or"
                    + " define a FileUploader or AsyncFileUploader bean.").doesNotContain("\n");
            assertThat(analysis.getAction()).contains("bounded-upload.local.root=./uploads").doesNotContain("\n");
        });
    }

    /** The local disk chosen explicitly: the uploader starts and stores there. */
    @Test
    void withALocalRootTheLocalDiskIsUsed() {
        runner().run(context -> {
            assertThat(context.getBean(LocalFileUploader.class).root()).isEqualTo(root.toRealPath());
            assertThat(uploadOne(context.getBean(ConcurrentAttachmentUploader.class)).allStored()).isTrue();
        });
    }

    @Test
    void disabledByProperty() {
        runner().withPropertyValues("bounded-upload.enabled=false")
                .withBean(io.micrometer.core.instrument.simple.SimpleMeterRegistry.class)
                .run(context -> assertThat(context).doesNotHaveBean(ConcurrentAttachmentUploader.class)
                        .doesNotHaveBean(UploaderConfig.class).doesNotHaveBean(FileUploader.class)
                        .doesNotHaveBean(BoundedUploadProperties.class).doesNotHaveBean(UploadListener.class)
                        .doesNotHaveBean(BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME));
    }

    @Test
    void backsOffWithoutTheCore() {
        runner().withClassLoader(new FilteredClassLoader(ConcurrentAttachmentUploader.class))
                .run(context -> assertThat(context).doesNotHaveBean(BoundedUploadProperties.class)
                        .doesNotHaveBean(BoundedUploadHealthAutoConfiguration.INDICATOR_BEAN_NAME));
    }

    @Test
    void worksWithoutTheAwsSdk() {
        runner().withClassLoader(new FilteredClassLoader("software.amazon.awssdk")).run(context -> {
            assertThat(context).hasSingleBean(LocalFileUploader.class);
            assertThat(uploadOne(context.getBean(ConcurrentAttachmentUploader.class)).allStored()).isTrue();
        });
    }

    // ---- the application's beans win ---------------------------------------------------------------------------

    @Test
    void anApplicationUploaderReplacesOursAndNeedsNoStorageOfOurs() {
        runner().withUserConfiguration(OwnUploader.class).run(context -> {
            assertThat(context).hasSingleBean(ConcurrentAttachmentUploader.class)
                    .doesNotHaveBean(LocalFileUploader.class);
            assertThat(context.getBean(ConcurrentAttachmentUploader.class).name()).isEqualTo("own");
        });
    }

    @Test
    void anApplicationFileUploaderReplacesTheLocalStorage() {
        runner().withBean(RecordingStorage.class, () -> new RecordingStorage(root.resolve("recorded")))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(LocalFileUploader.class);
                    uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    assertThat(context.getBean(RecordingStorage.class).threads).hasSize(1);
                });
    }

    @Test
    void anApplicationAsyncFileUploaderReplacesTheLocalStorage() {
        List<String> keys = new CopyOnWriteArrayList<>();
        AsyncFileUploader async = new AsyncFileUploader() {
            @Override
            public CompletableFuture<StoredObject> upload(UploadRequest request) {
                keys.add(request.key());
                return CompletableFuture.completedFuture(StoredObject.builder(request.key(), 5).build());
            }

            @Override
            public CompletableFuture<Void> delete(String key) {
                return CompletableFuture.completedFuture(null);
            }
        };
        runner().withBean(AsyncFileUploader.class, () -> async).run(context -> {
            assertThat(context).doesNotHaveBean(LocalFileUploader.class);
            BatchResult result = uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            assertThat(keys).containsExactly(result.storedObjects().get(0).key());
        });
    }

    @Test
    void twoStoragesAreReportedInsteadOfGuessed() {
        runner().withBean("one", FileUploader.class, () -> new RecordingStorage(root.resolve("one")))
                .withBean("two", FileUploader.class, () -> new RecordingStorage(root.resolve("two")))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(TestSupport.messages(context.getStartupFailure()))
                            .contains("needs exactly one storage, and found 2 FileUploader beans");
                });
    }

    @Test
    void anApplicationConfigReplacesOurs() {
        // Within Spring Boot's shutdown phase (UploaderDrainTests): the core's defaults would not fit.
        UploaderConfig own = UploaderConfig.builder().name("own-config").shutdownGracePeriod(Duration.ofSeconds(10))
                .stopTimeout(Duration.ofSeconds(5)).build();
        runner().withBean(UploaderConfig.class, () -> own).run(context -> assertThat(
                context.getBean(ConcurrentAttachmentUploader.class).config()).isSameAs(own));
    }

    @Test
    void withContextPropagationOnTheClassPathEveryRegisteredThreadLocalTravelsWithTheMdc() throws Exception {
        ThreadLocal<String> tenant = new ThreadLocal<>();
        io.micrometer.context.ContextRegistry.getInstance().registerThreadLocalAccessor("test.tenant", tenant);
        try {
            ContextPropagator propagator = UploaderConfiguration.propagator(true, true, List.of());
            tenant.set("acme");
            MDC.put("requestId", "r-7");
            ContextPropagator.Captured captured = propagator.capture();
            tenant.remove();
            MDC.clear();
            String[] seen = new String[2];
            Thread other = new Thread(() -> {
                try (ContextPropagator.Scope scope = captured.apply()) {
                    seen[0] = tenant.get();
                    seen[1] = MDC.get("requestId");
                }
            });
            other.start();
            other.join();
            assertThat(seen).containsExactly("acme", "r-7");
            assertThat(UploaderConfiguration.propagator(true, false, List.of())).isSameAs(ContextPropagator.mdc());
            assertThat(UploaderConfiguration.propagator(false, false, List.of())).isNotSameAs(ContextPropagator.mdc());
        } finally {
            io.micrometer.context.ContextRegistry.getInstance().removeThreadLocalAccessor("test.tenant");
        }
    }

    /**
     * A TaskDecorator bean's context reaches every upload of a batch, whichever thread hands the upload to a pool
     * thread (here, one at a time: the other caller's finishing uploads hand most of them over).
     */
    @Test
    void taskDecoratorBeansCarryTheSubmittersContextToEveryUpload() {
        ThreadLocal<String> tenant = new ThreadLocal<>();
        Map<String, String> tenantByName = new ConcurrentHashMap<>();
        TaskDecorator tenantDecorator = task -> {
            String captured = tenant.get();
            return () -> {
                tenant.set(captured);
                try {
                    task.run();
                } finally {
                    tenant.remove();
                }
            };
        };
        RecordingStorage recording = new RecordingStorage(root.resolve("tenants")) {
            @Override
            public StoredObject upload(UploadRequest request) throws IOException {
                tenantByName.put(request.attachment().fileName(), String.valueOf(tenant.get()));
                return super.upload(request);
            }
        };
        runner().withBean(TaskDecorator.class, () -> tenantDecorator).withBean(FileUploader.class, () -> recording)
                .withPropertyValues("bounded-upload.max-concurrent-uploads=1",
                        "bounded-upload.max-concurrent-uploads-per-batch=1")
                .run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    ExecutorService callers = Executors.newFixedThreadPool(2);
                    try {
                        List<Future<BatchResult>> results = new ArrayList<>();
                        for (String name : List.of("alpha", "beta")) {
                            results.add(callers.submit(() -> {
                                tenant.set(name);
                                try {
                                    return uploader.uploadAll(IntStream.range(0, 8).mapToObj(i -> Attachment
                                            .of(name + "-" + i + ".txt", new byte[] { 1 })).toList());
                                } finally {
                                    tenant.remove();
                                }
                            }));
                        }
                        for (Future<BatchResult> result : results) {
                            assertThat(result.get().allStored()).isTrue();
                        }
                    } finally {
                        callers.shutdownNow();
                    }
                    assertThat(tenantByName).hasSize(16).allSatisfy((name, seen) -> assertThat(name)
                            .startsWith(seen + "-"));
                });
    }

    @Test
    void applicationContextPropagatorAndKeyStrategyBeansAreUsed() {
        ContextPropagator propagator = ContextPropagator.none();
        runner().withBean(ContextPropagator.class, () -> propagator)
                .withBean(KeyStrategy.class, () -> KeyStrategy.fileName("fixed")).run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    assertThat(uploader.config().contextPropagator()).isSameAs(propagator);
                    assertThat(uploadOne(uploader).storedObjects().get(0).key()).isEqualTo("fixed/hello.txt");
                });
    }

    @Test
    void uploadListenerBeansAreAddedInOrder() {
        runner().withUserConfiguration(Listeners.class).run(context -> {
            List<UploadListener> listeners = context.getBean(ConcurrentAttachmentUploader.class).config().listeners();
            assertThat(listeners).containsExactly(context.getBean("firstListener", UploadListener.class),
                    context.getBean("secondListener", UploadListener.class));
        });
    }

    // ---- executor -----------------------------------------------------------------------------------------------

    @Test
    void anExecutorBeanNamedBoundedUploadExecutorReplacesTheOwnThreadsAndIsNotShutDown() {
        ExecutorService executor = Executors.newFixedThreadPool(2, task -> new Thread(task, "app-upload"));
        try {
            runner().withBean(BoundedUploadAutoConfiguration.EXECUTOR_BEAN_NAME, Executor.class, () -> executor)
                    .withBean(RecordingStorage.class, () -> new RecordingStorage(root)).run(context -> {
                        ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                        assertThat(uploader.config().executor()).containsSame(executor);
                        uploadOne(uploader);
                        assertThat(context.getBean(RecordingStorage.class).threads)
                                .extracting(Thread::getName).containsExactly("app-upload");
                        // Spring shuts it down after the uploader: the uploader (by way of its config) depends on it.
                        assertThat(context.getBeanFactory().getDependentBeans(
                                BoundedUploadAutoConfiguration.EXECUTOR_BEAN_NAME)).contains("boundedUploadConfig");
                        assertThat(context.getBeanFactory().getDependentBeans("boundedUploadConfig"))
                                .contains("boundedUploader");
                        // Spring shuts the application's bean down when the context closes; the uploader must not.
                        uploader.close();
                        assertThat(executor.isShutdown()).isFalse();
                    });
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void otherExecutorBeansAreNotUsed() {
        ExecutorService shared = Executors.newSingleThreadExecutor();
        try {
            runner().withBean("applicationTaskExecutor", Executor.class, () -> shared)
                    .withBean(RecordingStorage.class, () -> new RecordingStorage(root)).run(context -> {
                        ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                        assertThat(uploader.config().executor()).isEmpty();
                        uploadOne(uploader);
                        assertThat(context.getBean(RecordingStorage.class).threads)
                                .extracting(Thread::getName).singleElement().asString()
                                .startsWith("bounded-upload-default-");
                    });
        } finally {
            shared.shutdownNow();
        }
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void springVirtualThreadsMakeTheUploadThreadsVirtual() {
        runner().withPropertyValues("spring.threads.virtual.enabled=true")
                .withBean(RecordingStorage.class, () -> new RecordingStorage(root)).run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    assertThat(uploader.config().executorType()).isEqualTo(ExecutorType.VIRTUAL);
                    uploadOne(uploader);
                    Thread thread = context.getBean(RecordingStorage.class).threads.get(0);
                    assertThat(isVirtual(thread)).isTrue();
                    assertThat(thread.getName()).startsWith("bounded-upload-default-");
                });
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void springVirtualThreadsAreIgnoredWhereTheJvmHasNone() {
        runner().withPropertyValues("spring.threads.virtual.enabled=true")
                .run(context -> assertThat(context.getBean(UploaderConfig.class).executorType())
                        .isEqualTo(UploaderConfig.DEFAULT_EXECUTOR_TYPE));
    }

    @Test
    void anExplicitExecutorTypeWinsOverSpringVirtualThreads() {
        runner().withPropertyValues("spring.threads.virtual.enabled=true", "bounded-upload.executor.type=platform")
                .withBean(RecordingStorage.class, () -> new RecordingStorage(root)).run(context -> {
                    assertThat(context.getBean(UploaderConfig.class).executorType())
                            .isEqualTo(ExecutorType.PLATFORM);
                    uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    assertThat(isVirtual(context.getBean(RecordingStorage.class).threads.get(0))).isFalse();
                });
    }

    // ---- customizers --------------------------------------------------------------------------------------------

    /** Default, then property, then customizer: the later wins (Resilience4j's 10 / 100 / 1000). */
    @Test
    void customizerWinsOverPropertyWhichWinsOverDefault() {
        runner().run(context -> assertThat(context.getBean(UploaderConfig.class).maxConcurrentUploads())
                .isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS));
        runner().withPropertyValues("bounded-upload.max-concurrent-uploads=100")
                .run(context -> assertThat(context.getBean(UploaderConfig.class).maxConcurrentUploads())
                        .isEqualTo(100));
        runner().withPropertyValues("bounded-upload.max-concurrent-uploads=100")
                .withBean(UploaderConfigCustomizer.class, () -> builder -> builder.maxConcurrentUploads(1000))
                .run(context -> assertThat(context.getBean(UploaderConfig.class).maxConcurrentUploads())
                        .isEqualTo(1000));
    }

    @Test
    void customizersApplyInOrder() {
        runner().withUserConfiguration(OrderedCustomizers.class).run(context -> {
            assertThat(context.getBean(OrderedCustomizers.class).applied).containsExactly("first", "second");
            assertThat(context.getBean(UploaderConfig.class).name()).isEqualTo("second");
        });
    }

    @Test
    void aCustomizerThatBreaksTheConfigurationIsReported() {
        runner().withBean(UploaderConfigCustomizer.class, () -> builder -> builder.maxConcurrentUploadsPerBatch(0))
                .run(context -> {
                    assertThat(context).hasFailed();
                    UploaderSetupException failure = findCause(context.getStartupFailure(),
                            UploaderSetupException.class);
                    assertThat(failure.getMessage()).contains("after the UploaderConfigCustomizer beans were applied")
                            .contains("maxConcurrentUploadsPerBatch must be from 1 to maxConcurrentUploads (64)");
                    assertThat(new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure()))
                            .satisfies(analysis -> {
                                assertThat(analysis.getDescription()).isEqualTo(failure.getMessage());
                                assertThat(analysis.getAction()).contains("UploaderConfigCustomizer");
                            });
                });
    }

    // ---- context propagation ------------------------------------------------------------------------------------

    @Test
    void theMdcOfTheSubmittingThreadReachesTheStorage() {
        runner().withBean(RecordingStorage.class, () -> new RecordingStorage(root)).run(context -> {
            MDC.put("requestId", "r-42");
            uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            RecordingStorage storage = context.getBean(RecordingStorage.class);
            assertThat(storage.threads).singleElement().isNotSameAs(Thread.currentThread());
            assertThat(storage.requestIds).containsExactly("r-42");
        });
    }

    @Test
    void theMdcIsNotPropagatedWhenDisabled() {
        runner().withPropertyValues("bounded-upload.mdc.enabled=false")
                .withBean(RecordingStorage.class, () -> new RecordingStorage(root)).run(context -> {
                    MDC.put("requestId", "r-42");
                    uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    assertThat(context.getBean(RecordingStorage.class).requestIds).containsExactly("<none>");
                });
    }

    // ---- lifecycle ----------------------------------------------------------------------------------------------

    @Test
    void closingTheContextClosesTheUploaderAndStopsItsThreads() throws Exception {
        AtomicReference<ConcurrentAttachmentUploader> uploader = new AtomicReference<>();
        AtomicReference<Thread> uploadThread = new AtomicReference<>();
        ExecutorCapture capture = new ExecutorCapture();
        runner().withPropertyValues("bounded-upload.executor.type=platform")
                .withBean(RecordingStorage.class, () -> new RecordingStorage(root))
                .withBean(ExecutorCapture.class, () -> capture).run(context -> {
                    uploader.set(context.getBean(ConcurrentAttachmentUploader.class));
                    uploadOne(uploader.get());
                    uploadThread.set(context.getBean(RecordingStorage.class).threads.get(0));
                    assertThat(uploadThread.get().isAlive()).isTrue();
                });
        assertThat(uploader.get().stats().closed()).isTrue();
        assertThat(capture.executor.get()).isInstanceOf(ExecutorService.class);
        assertThat(((ExecutorService) capture.executor.get()).isTerminated()).isTrue();
        // Terminated means every worker has left the pool; join waits for the thread's last instructions.
        uploadThread.get().join(Duration.ofMinutes(1).toMillis());
        assertThat(uploadThread.get().isAlive()).isFalse();
    }

    @Test
    void aRootThatCannotBeCreatedFailsStartUp() throws Exception {
        Path file = Files.writeString(root.resolve("a-file"), "x");
        runner().withPropertyValues("bounded-upload.local.root=" + file.resolve("below")).run(context -> {
            assertThat(context).hasFailed();
            assertThat(TestSupport.messages(context.getStartupFailure())).contains(file.toString());
        });
    }

    static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + TestSupport.messages(failure));
    }

    /** Records the executor the uploader runs on. */
    static final class ExecutorCapture implements UploadListener {
        final AtomicReference<Executor> executor = new AtomicReference<>();

        @Override
        public void uploaderCreated(UploaderEvent uploader, Executor executor) {
            this.executor.set(executor);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnUploader {
        @Bean(destroyMethod = "close")
        ConcurrentAttachmentUploader ownUploader(BoundedUploadProperties properties) {
            return ConcurrentAttachmentUploader.create(new RecordingStorage(properties.getLocal().getRoot()),
                    UploaderConfig.builder().name("own").build());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Listeners {
        @Bean
        @Order(2)
        UploadListener secondListener() {
            return new UploadListener() {
            };
        }

        @Bean
        @Order(1)
        UploadListener firstListener() {
            return new UploadListener() {
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OrderedCustomizers {
        final List<String> applied = new CopyOnWriteArrayList<>();

        @Bean
        @Order(2)
        UploaderConfigCustomizer second() {
            return builder -> {
                applied.add("second");
                builder.name("second");
            };
        }

        @Bean
        @Order(1)
        UploaderConfigCustomizer first() {
            return builder -> {
                applied.add("first");
                builder.name("first");
            };
        }
    }
}
