package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Request ids in the logs, the uploader's metrics and its health, as an operator sees them. */
@ExtendWith(OutputCaptureExtension.class)
class ObservabilityTests extends LocalDiskTest {

    @Test
    void everyLogLineOfARequestCarriesItsIdEvenOnTheUploadThreads(CapturedOutput output) {
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3")
                .file("a.txt", "a").file("b.txt", "b").file("c.txt", "c"), "X-Request-Id", "req-42.a_b");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("X-Request-Id")).isEqualTo("req-42.a_b");
        List<String> uploadLines = output.getOut().lines()
                .filter(line -> line.contains("stored file #") && line.contains("studies/" + studyId + "/"))
                .toList();
        assertThat(uploadLines).hasSize(3).allSatisfy(line -> assertThat(line)
                .contains("[req-42.a_b]")
                .containsPattern("\\[.*attachments-\\d+\\]")); // the uploader's own threads
    }

    @Test
    void aRequestWithoutAnIdGetsOne() {
        String id = api.get("/").header("X-Request-Id");

        assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    }

    @Test
    void anIdThatCouldForgeLogLinesIsReplaced(CapturedOutput output) {
        Api.Response response = api.get(weeksPath() + "/1", "X-Request-Id", "x] ERROR forged [y");

        assertThat(response.header("X-Request-Id")).doesNotContain("forged").hasSize(36);
        assertThat(output.getOut()).doesNotContain("forged");
    }

    @Test
    void theMetricsShowTheUploader() {
        assertThat(api.post(weeksPath(), Multipart.week("Week 3").file("a.txt", "12345")).status()).isEqualTo(201);

        Api.Response names = api.get("/actuator/metrics");
        assertThat(names.json("$.names", List.class)).contains("bounded.upload", "bounded.upload.bytes",
                "bounded.upload.batch", "bounded.upload.wait", "bounded.upload.active", "bounded.upload.queued");

        Api.Response bytes = api.get("/actuator/metrics/bounded.upload.bytes?tag=uploader:attachments");
        assertThat(bytes.status()).isEqualTo(200);
        assertThat(bytes.json("$.measurements[0].value", Double.class)).isGreaterThanOrEqualTo(5);
        Api.Response uploads = api.get("/actuator/metrics/bounded.upload?tag=outcome:success");
        assertThat(uploads.json("$.measurements[?(@.statistic == 'COUNT')].value", List.class))
                .first().asString().isNotEqualTo("0.0");
    }

    @Test
    void theHealthShowsTheUploader() {
        Api.Response health = api.get("/actuator/health");

        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json("$.components.boundedUpload.status", String.class)).isEqualTo("UP");
        assertThat(health.json("$.components.boundedUpload.details.name", String.class)).isEqualTo("attachments");
        assertThat(health.json("$.components.boundedUpload.details.maxConcurrentUploads", Integer.class))
                .isEqualTo(3);
    }
}
