package io.github.boundedupload.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.Batches;
import io.github.boundedupload.fakes.FakeStorage;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A batch submitted under a request's observation is observed under it, and each upload under its batch, whichever
 * thread runs it; outcomes and failures are recorded.
 */
class ObservationUploadListenerTest {

    private final ObservationRegistry registry = ObservationRegistry.create();
    /** Every observation's context, as it stops. */
    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    ObservationUploadListenerTest() {
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }
        });
    }
    private final FakeStorage storage = new FakeStorage();

    @Test
    void aSpanPerUploadUnderItsBatchUnderTheRequest() {
        storage.behaviour = request -> {
            if (request.fileName().equals("o-2.txt")) {
                throw new IOException("refused");
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("observed").failurePolicy(FailurePolicy.COLLECT)
                        .listener(new ObservationUploadListener(registry)).build())) {
            Observation request = Observation.start("http.server.requests", registry);
            BatchResult result;
            try (Observation.Scope scope = request.openScope()) {
                result = uploader.uploadAll(Batches.of("o", 3, 10));
            }
            request.stop();
            assertThat(result.storedObjects()).hasSize(2);
        }

        List<Observation.Context> contexts = stopped;
        assertThat(contexts).filteredOn(c -> c.getName().equals(DefaultBatchObservationConvention.NAME)).hasSize(1);
        assertThat(contexts).filteredOn(c -> c.getName().equals(DefaultUploadObservationConvention.NAME)).hasSize(3)
                .allSatisfy(upload -> {
                    assertThat(upload.getLowCardinalityKeyValue("uploader")).isEqualTo(
                            KeyValue.of("uploader", "observed"));
                    // The file names are the user's: in no key value by default.
                    assertThat(upload.getAllKeyValues()).noneMatch(value -> value.getValue().contains("o-"));
                });
        Observation.Context batch = contexts.stream()
                .filter(c -> c.getName().equals(DefaultBatchObservationConvention.NAME)).findFirst().orElseThrow();
        assertThat(batch.getParentObservation()).isNotNull();
        assertThat(batch.getParentObservation().getContextView().getName()).isEqualTo("http.server.requests");
        assertThat(batch.getLowCardinalityKeyValue("outcome")).isEqualTo(KeyValue.of("outcome", "partial"));
        List<Observation.Context> uploads = contexts.stream()
                .filter(c -> c.getName().equals(DefaultUploadObservationConvention.NAME)).toList();
        assertThat(uploads).allSatisfy(upload -> assertThat(upload.getParentObservation().getContextView())
                .isSameAs(batch));
        assertThat(uploads).filteredOn(upload -> upload.getError() != null).singleElement()
                .satisfies(failed -> assertThat(failed.getLowCardinalityKeyValue("outcome"))
                        .isEqualTo(KeyValue.of("outcome", "failure")));
        assertThat(uploads).filteredOn(upload -> upload.getError() == null).hasSize(2)
                .allSatisfy(stored -> assertThat(stored.getLowCardinalityKeyValue("outcome"))
                        .isEqualTo(KeyValue.of("outcome", "success")));
    }

    /** An application that wants the object key on its spans says so with a convention of its own. */
    @Test
    void aConventionOfTheApplicationsNamesAndTagsTheObservations() {
        UploadObservationConvention withKeys = new DefaultUploadObservationConvention() {
            @Override
            public KeyValues getHighCardinalityKeyValues(UploadObservationContext context) {
                return KeyValues.of("key", context.upload().key());
            }
        };
        BatchObservationConvention renamed = new DefaultBatchObservationConvention() {
            @Override
            public String getName() {
                return "attachments.batch";
            }
        };
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().name("observed")
                        .listener(new ObservationUploadListener(registry, withKeys, renamed)).build())) {
            uploader.uploadAll(Batches.of("k", 2, 10));
        }
        assertThat(stopped).filteredOn(c -> c.getName().equals("attachments.batch")).hasSize(1);
        assertThat(stopped).filteredOn(c -> c.getName().equals(DefaultUploadObservationConvention.NAME)).hasSize(2)
                .allSatisfy(upload -> assertThat(upload.getHighCardinalityKeyValue("key").getValue())
                        .contains("k-"));
    }
}
