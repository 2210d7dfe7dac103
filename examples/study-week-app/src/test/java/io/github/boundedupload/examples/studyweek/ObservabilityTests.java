package io.github.boundedupload.examples.studyweek;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Request ids in the logs, the uploader's metrics and its health, as an operator sees them. */
@ExtendWith(OutputCaptureExtension.class)
class ObservabilityTests extends LocalDiskTest {

    private static final String UPLOAD_LOG = "io.github.boundedupload.examples.studyweek.progress.UploadLog";

    @Autowired
    LoggingSystem logging;

    /** Regression: the example logged one INFO line per file; a request of 10 files wrote 11. */
    @Test
    void oneInfoLinePerRequestWrittenOnTheUploadThreadsWithTheRequestsId(CapturedOutput output) {
        Api.Response created = api.post(weeksPath(), Multipart.week("Week 3")
                .file("a.txt", "a").file("b.txt", "b").file("c.txt", "c"), "X-Request-Id", "req-42.a_b");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("X-Request-Id")).isEqualTo("req-42.a_b");
        assertThat(linesOf(output, "[req-42.a_b]")).singleElement().asString()
                .contains(" INFO ", "upload of 3 file(s): 3 stored in ")
                .containsPattern("\\[.*attachments-\\d+\\]"); // the uploader's own threads
    }

    @Test
    void eachFileAtDebugCountedFromOne(CapturedOutput output) {
        logging.setLogLevel(UPLOAD_LOG, LogLevel.DEBUG);
        try {
            Api.Response created = api.post(weeksPath(), Multipart.week("Week 3")
                    .file("a.txt", "a").file("b.txt", "b").file("c.txt", "c"), "X-Request-Id", "req-43");

            assertThat(created.status()).isEqualTo(201);
            List<String> files = linesOf(output, "[req-43]").stream().filter(line -> line.contains("DEBUG")).toList();
            assertThat(files).hasSize(3).allSatisfy(line -> assertThat(line)
                    .containsPattern("stored file [123] \\(1 bytes\\) as studies/" + studyId + "/")
                    .containsPattern("\\[.*attachments-\\d+\\]"));
            assertThat(files).noneMatch(line -> line.contains("stored file 0"));
        } finally {
            logging.setLogLevel(UPLOAD_LOG, null);
        }
    }

    private static List<String> linesOf(CapturedOutput output, String requestId) {
        return output.getOut().lines().filter(line -> line.contains(requestId)).toList();
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
                "bounded.upload.batch", "bounded.upload.wait", "bounded.upload.in.flight", "bounded.upload.queued");

        Api.Response bytes = api.get("/actuator/metrics/bounded.upload.bytes?tag=uploader:attachments");
        assertThat(bytes.status()).isEqualTo(200);
        assertThat(bytes.json("$.measurements[0].value", Double.class)).isGreaterThanOrEqualTo(5);
        Api.Response uploads = api.get("/actuator/metrics/bounded.upload?tag=outcome:success");
        assertThat(uploads.json("$.measurements[?(@.statistic == 'COUNT')].value", List.class))
                .first().asString().isNotEqualTo("0.0");
    }

    /** Regression: anonymous callers read the storage path (the disk space check's) and the uploader's settings. */
    @Test
    void anonymousCallersSeeEachComponentsStatusButNoDetails() {
        Api.Response health = api.get("/actuator/health");

        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json("$.status", String.class)).isEqualTo("UP");
        assertThat(health.json("$.components.boundedUpload.status", String.class)).isEqualTo("UP");
        assertThat(health.json().read("$..details", List.class)).isEmpty();
        assertThat(health.text()).doesNotContain(DATA.toString(), "path", "attachments", "maxConcurrentUploads");
    }
}
