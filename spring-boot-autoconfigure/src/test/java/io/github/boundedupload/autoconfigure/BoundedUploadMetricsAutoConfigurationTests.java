package io.github.boundedupload.autoconfigure;

import static io.github.boundedupload.autoconfigure.TestSupport.uploadOne;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.micrometer.MicrometerUploadListener;
import io.github.boundedupload.micrometer.ObservationUploadListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class BoundedUploadMetricsAutoConfigurationTests {

    @TempDir
    Path root;

    private ApplicationContextRunner runner() {
        return TestSupport.runner(root);
    }

    @Test
    void metersAppearAfterAnUpload() {
        runner().withPropertyValues("bounded-upload.executor.type=platform")
                .withBean(SimpleMeterRegistry.class).run(context -> {
                    assertThat(context).hasSingleBean(MicrometerUploadListener.class);
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    assertThat(uploader.config().listeners())
                            .containsExactly(context.getBean(MicrometerUploadListener.class));
                    uploadOne(uploader);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(MicrometerUploadListener.UPLOAD).tag("uploader", "default")
                            .tag("outcome", "success").timer().count()).isEqualTo(1);
                    assertThat(registry.get(MicrometerUploadListener.BATCH).tag("outcome", "success").timer()
                            .count()).isEqualTo(1);
                    assertThat(registry.get(MicrometerUploadListener.BYTES).counter().count()).isEqualTo(5);
                    assertThat(registry.get(MicrometerUploadListener.ACTIVE).gauge().value()).isZero();
                    assertThat(registry.get(MicrometerUploadListener.QUEUED).gauge().value()).isZero();
                    // The uploader's own pool is metered. (Not its completed count: a worker counts its task only
                    // after the batch has already completed.)
                    assertThat(registry.get("executor.pool.max").tag("name", "bounded-upload-default").gauge()
                            .value()).isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS);
                });
    }

    /**
     * One timer per upload and per batch by default: with an ObservationRegistry whose handler makes meters (as Spring
     * Boot's does), the observations still happen (and so their spans), but their own timers are denied;
     * {@code bounded-upload.metrics.observation-timers=true} brings them back.
     */
    @Test
    void oneTimerPerUploadByDefaultWhileTheObservationsStay() {
        for (boolean observationTimers : new boolean[] { false, true }) {
            List<String> observed = new CopyOnWriteArrayList<>();
            runner().withConfiguration(TestSupport.springBootMetrics())
                    .withPropertyValues("bounded-upload.metrics.observation-timers=" + observationTimers)
                    .withBean(ObservationRegistry.class, ObservationRegistry::create)
                    .run(context -> {
                        MeterRegistry meters = context.getBean(MeterRegistry.class);
                        ObservationRegistry observations = context.getBean(ObservationRegistry.class);
                        observations.observationConfig().observationHandler(
                                new io.micrometer.core.instrument.observation.DefaultMeterObservationHandler(meters))
                                .observationHandler(new ObservationHandler<Observation.Context>() {
                                    @Override
                                    public void onStart(Observation.Context observation) {
                                        observed.add(observation.getName());
                                    }

                                    @Override
                                    public boolean supportsContext(Observation.Context observation) {
                                        return true;
                                    }
                                });
                        uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                        assertThat(observed).as("the observations (and their spans) stay")
                                .containsExactlyInAnyOrder(ObservationUploadListener.BATCH,
                                        ObservationUploadListener.UPLOAD);
                        assertThat(meters.get(MicrometerUploadListener.UPLOAD).timer().count()).isEqualTo(1);
                        assertThat(meters.get(MicrometerUploadListener.BATCH).timer().count()).isEqualTo(1);
                        assertThat(meters.find(ObservationUploadListener.UPLOAD).timer() != null)
                                .as("the upload observation's own timer").isEqualTo(observationTimers);
                        assertThat(meters.find(ObservationUploadListener.BATCH).timer() != null)
                                .as("the batch observation's own timer").isEqualTo(observationTimers);
                    });
        }
    }

    @Test
    void worksWithSpringBootsOwnMetricsAutoConfiguration() {
        runner().withConfiguration(TestSupport.springBootMetrics()).run(context -> {
            assertThat(context).hasSingleBean(MicrometerUploadListener.class);
            uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            assertThat(context.getBean(MeterRegistry.class).get(MicrometerUploadListener.UPLOAD).timer().count())
                    .isEqualTo(1);
        });
    }

    @Test
    void anObservationRegistryGetsAnObservationPerBatchAndUpload() {
        ObservationRegistry observations = ObservationRegistry.create();
        List<String> stopped = new CopyOnWriteArrayList<>();
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context.getName());
            }
        });
        runner().withBean(ObservationRegistry.class, () -> observations).run(context -> {
            assertThat(context).hasSingleBean(ObservationUploadListener.class);
            uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            assertThat(stopped).containsExactly(ObservationUploadListener.UPLOAD, ObservationUploadListener.BATCH);
        });
        runner().withBean(ObservationRegistry.class, () -> observations)
                .withPropertyValues("bounded-upload.metrics.observations=false")
                .run(context -> assertThat(context).doesNotHaveBean(ObservationUploadListener.class));
    }

    @Test
    void noListenerWithoutAMeterRegistry() {
        runner().run(context -> {
            assertThat(context).doesNotHaveBean(MicrometerUploadListener.class);
            assertThat(context.getBean(ConcurrentAttachmentUploader.class).config().listeners()).isEmpty();
        });
    }

    @Test
    void disabledByProperty() {
        runner().withPropertyValues("bounded-upload.metrics.enabled=false").withBean(SimpleMeterRegistry.class)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(MicrometerUploadListener.class);
                    uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    assertThat(context.getBean(MeterRegistry.class).find(MicrometerUploadListener.UPLOAD).timer())
                            .isNull();
                });
    }

    @Test
    void anApplicationListenerReplacesOurs() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerUploadListener own = new MicrometerUploadListener(registry);
        runner().withBean(SimpleMeterRegistry.class, () -> registry)
                .withBean(MicrometerUploadListener.class, () -> own)
                .run(context -> assertThat(context.getBean(ConcurrentAttachmentUploader.class).config().listeners())
                        .containsExactly(own));
    }

    @Test
    void withoutMicrometerTheUploaderStillWorks() {
        runner().withClassLoader(new FilteredClassLoader("io.micrometer.core")).run(context -> {
            assertThat(context).doesNotHaveBean(MicrometerUploadListener.class);
            assertThat(uploadOne(context.getBean(ConcurrentAttachmentUploader.class)).allStored()).isTrue();
        });
    }
}
