package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.autoconfigure.TestSupport.RecordingStorage;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.micrometer.DefaultBatchObservationConvention;
import io.github.boundedupload.micrometer.DefaultUploadObservationConvention;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With a real tracer (Micrometer Tracing's test tracer behind Micrometer's tracing observation handler, as Spring Boot
 * wires a Brave or OpenTelemetry one): a span per batch under the request's span, a span per upload under its batch,
 * one trace; and the storage's own code, on the uploader's threads, sees the request's trace as the current one.
 */
class TracingTests {

    @TempDir
    Path root;

    @Test
    void aSpanPerUploadUnderItsBatchUnderTheRequestsSpanInOneTrace() {
        SimpleTracer tracer = new SimpleTracer();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        Map<String, String> traceSeenByStorage = new ConcurrentHashMap<>();
        Map<String, String> threadOfUpload = new ConcurrentHashMap<>();
        RecordingStorage storage = new RecordingStorage(root) {
            @Override
            public StoredObject upload(UploadRequest request) throws IOException {
                Span current = tracer.currentSpan();
                traceSeenByStorage.put(request.attachment().fileName(),
                        current == null ? "none" : current.context().traceId());
                threadOfUpload.put(request.attachment().fileName(), Thread.currentThread().getName());
                return super.upload(request);
            }
        };
        TestSupport.runner(root).withBean(ObservationRegistry.class, () -> observations)
                .withBean(FileUploader.class, () -> storage).run(context -> {
                    ConcurrentAttachmentUploader uploader = context.getBean(ConcurrentAttachmentUploader.class);
                    List<Attachment> files = IntStream.range(0, 4).mapToObj(i -> Attachment.of("f" + i + ".txt",
                            ("file " + i).getBytes(StandardCharsets.UTF_8))).toList();
                    Observation request = Observation.start("http.server.requests", observations);
                    BatchResult result;
                    try (Observation.Scope scope = request.openScope()) {
                        result = uploader.uploadAll(files);
                    }
                    request.stop();
                    assertThat(result.allStored()).isTrue();
                });

        List<SimpleSpan> spans = List.copyOf(tracer.getSpans());
        SimpleSpan request = only(spans, "http.server.requests");
        SimpleSpan batch = only(spans, "bounded-upload batch");
        List<SimpleSpan> uploads = spans.stream().filter(s -> s.getName().equals("bounded-upload upload")).toList();
        assertThat(uploads).hasSize(4);
        assertThat(spans).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(request.getTraceId()));
        assertThat(batch.getParentId()).isEqualTo(request.getSpanId());
        assertThat(uploads).allSatisfy(upload -> assertThat(upload.getParentId()).isEqualTo(batch.getSpanId()));
        assertThat(threadOfUpload.values()).allSatisfy(thread -> assertThat(thread).startsWith("bounded-upload-"));
        assertThat(traceSeenByStorage).hasSize(4)
                .allSatisfy((file, trace) -> assertThat(trace).isEqualTo(request.getTraceId()));
    }

    /**
     * One observation per upload gives both the timer and the span, with the documented names and key values, as
     * Spring Boot composes a tracer's handler and the meter handler; no file name is in any tag or span attribute.
     */
    @Test
    void oneObservationPerUploadMakesBothTheTimerAndTheSpanWithoutAFileName() {
        SimpleTracer tracer = new SimpleTracer();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer))
                .observationHandler(new DefaultMeterObservationHandler(meters));
        TestSupport.runner(root).withBean(ObservationRegistry.class, () -> observations)
                .withBean(MeterRegistry.class, () -> meters).run(context -> {
                    List<Attachment> files = IntStream.range(0, 3).mapToObj(i -> Attachment.of("secret-" + i
                            + ".txt", ("file " + i).getBytes(StandardCharsets.UTF_8))).toList();
                    assertThat(context.getBean(ConcurrentAttachmentUploader.class).uploadAll(files).allStored())
                            .isTrue();
                });

        assertThat(meters.get(DefaultUploadObservationConvention.NAME).tags("uploader", "default", "outcome",
                "success", "error", "none").timer().count()).isEqualTo(3);
        assertThat(meters.get(DefaultBatchObservationConvention.NAME).tags("uploader", "default", "outcome",
                "success").timer().count()).isEqualTo(1);
        List<SimpleSpan> spans = List.copyOf(tracer.getSpans());
        assertThat(spans.stream().filter(s -> s.getName().equals("bounded-upload upload")).toList()).hasSize(3)
                .allSatisfy(upload -> assertThat(upload.getTags()).containsEntry("uploader", "default")
                        .containsEntry("outcome", "success"));
        assertThat(only(spans, "bounded-upload batch").getTags()).containsEntry("outcome", "success")
                .containsEntry("batch.size", "3");
        assertThat(spans).flatExtracting(span -> span.getTags().values()).noneMatch(value -> value.contains("secret"));
        assertThat(meters.getMeters()).flatExtracting(meter -> meter.getId().getTags())
                .noneMatch(tag -> tag.getValue().contains("secret"));
    }

    private static SimpleSpan only(List<SimpleSpan> spans, String name) {
        List<SimpleSpan> named = spans.stream().filter(s -> name.equals(s.getName())).toList();
        assertThat(named).as("spans named %s among %s", name, spans).hasSize(1);
        return named.get(0);
    }
}
