package io.github.boundedupload.autoconfigure;

import static io.github.boundedupload.autoconfigure.TestSupport.uploadOne;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.micrometer.DefaultBatchObservationConvention;
import io.github.boundedupload.micrometer.DefaultUploadObservationConvention;
import io.github.boundedupload.micrometer.MicrometerUploadListener;
import io.github.boundedupload.micrometer.UploadObservationConvention;
import io.micrometer.core.instrument.Timer;
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
                    assertThat(registry.get(MicrometerUploadListener.BYTES).counter().count()).isEqualTo(5);
                    assertThat(registry.get(MicrometerUploadListener.IN_FLIGHT).gauge().value()).isZero();
                    assertThat(registry.find(DefaultUploadObservationConvention.NAME).timer())
                            .as("the timers are the observations', and there is no ObservationRegistry").isNull();
                    assertThat(registry.get(MicrometerUploadListener.QUEUED).gauge().value()).isZero();
                    // The uploader's own pool is metered. (Not its completed count: a worker counts its task only
                    // after the batch has already completed.)
                    assertThat(registry.get("executor.pool.max").tag("name", "bounded-upload-default").gauge()
                            .value()).isEqualTo(UploaderConfig.DEFAULT_MAX_CONCURRENT_UPLOADS);
                });
    }

    /**
     * With Spring Boot's metrics and observations, each upload and each batch is one observation, whose timer Spring
     * Boot's meter handler makes: one timer each, with the documented names and tags, and no file name in any tag.
     */
    @Test
    void eachUploadIsOneObservationWhoseTimerIsTheOnlyOne() {
        runner().withConfiguration(TestSupport.springBootObservations()).run(context -> {
            assertThat(context).hasSingleBean(ObservationUploadListener.class);
            uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get(DefaultUploadObservationConvention.NAME).tags("uploader", "default", "outcome",
                    "success", "error", "none").timer().count()).isEqualTo(1);
            assertThat(meters.get(DefaultBatchObservationConvention.NAME).tags("uploader", "default", "outcome",
                    "success").timer().count()).isEqualTo(1);
            assertThat(meters.getMeters()).filteredOn(meter -> meter instanceof Timer)
                    .extracting(meter -> meter.getId().getName()).filteredOn(name -> name.startsWith("bounded"))
                    .containsExactlyInAnyOrder(DefaultUploadObservationConvention.NAME,
                            DefaultBatchObservationConvention.NAME, MicrometerUploadListener.WAIT);
            assertThat(meters.getMeters()).flatExtracting(meter -> meter.getId().getTags())
                    .noneMatch(tag -> tag.getValue().contains("a.txt"));
        });
    }

    /** Spring Boot's own switches: management.observations.enable.* and management.metrics.enable.*. */
    @Test
    void springBootsSwitchesTurnTheObservationsAndTheMetersOff() {
        runner().withConfiguration(TestSupport.springBootObservations())
                .withPropertyValues("management.observations.enable.bounded.upload=false").run(context -> {
                    uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    assertThat(meters.find(DefaultUploadObservationConvention.NAME).timer()).isNull();
                    assertThat(meters.find(DefaultBatchObservationConvention.NAME).timer()).isNull();
                    assertThat(meters.get(MicrometerUploadListener.BYTES).counter().count()).isEqualTo(5);
                });
        runner().withConfiguration(TestSupport.springBootObservations())
                .withPropertyValues("management.metrics.enable.bounded.upload=false").run(context -> {
                    uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    assertThat(context.getBean(MeterRegistry.class).getMeters())
                            .noneMatch(meter -> meter.getId().getName().startsWith("bounded.upload"));
                });
    }

    /** An application's convention beans name and tag the observations. */
    @Test
    void theApplicationsConventionsAreUsed() {
        runner().withConfiguration(TestSupport.springBootObservations())
                .withBean(UploadObservationConvention.class, () -> new DefaultUploadObservationConvention() {
                    @Override
                    public String getName() {
                        return "attachments.upload";
                    }
                }).run(context -> {
                    uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    assertThat(meters.get("attachments.upload").timer().count()).isEqualTo(1);
                    assertThat(meters.find(DefaultUploadObservationConvention.NAME).timer()).isNull();
                });
    }

    @Test
    void worksWithSpringBootsOwnMetricsAutoConfiguration() {
        runner().withConfiguration(TestSupport.springBootMetrics()).run(context -> {
            assertThat(context).hasSingleBean(MicrometerUploadListener.class);
            uploadOne(context.getBean(ConcurrentAttachmentUploader.class));
            assertThat(context.getBean(MeterRegistry.class).get(MicrometerUploadListener.BYTES).counter().count())
                    .isEqualTo(5);
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
            assertThat(stopped).containsExactly(DefaultUploadObservationConvention.NAME,
                    DefaultBatchObservationConvention.NAME);
        });
    }

    @Test
    void noListenerWithoutAMeterRegistry() {
        runner().run(context -> {
            assertThat(context).doesNotHaveBean(MicrometerUploadListener.class);
            assertThat(context.getBean(ConcurrentAttachmentUploader.class).config().listeners()).isEmpty();
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
