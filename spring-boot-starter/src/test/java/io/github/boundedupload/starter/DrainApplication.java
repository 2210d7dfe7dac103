package io.github.boundedupload.starter;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The application {@link DrainOnSigtermIT} starts as a process of its own and stops with SIGTERM: the starter's
 * auto-configured uploader on S3, with batches in flight. It reports on standard output, one line each (prefixed with
 * {@value #LINE}), every attachment it submits, when each starts uploading, how each ends, and every refused batch.
 *
 * <ul>
 *   <li>batch "slow": two small attachments and a large one (3 parts), which cannot finish within the shutdown grace
 *       period behind the test's slow network;</li>
 *   <li>batch "medium": one attachment that can;</li>
 *   <li>from the moment the context starts closing, small batches one after another until the uploader refuses
 *       one.</li>
 * </ul>
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class DrainApplication {

    /** The prefix of the lines the test reads. */
    static final String LINE = "@@ ";
    static final int SMALL = 50 * 1024;
    static final int MEDIUM = 2 * 1024 * 1024;
    static final int LARGE = 3 * 8 * 1024 * 1024;

    public static void main(String[] args) {
        SpringApplication.run(DrainApplication.class, args);
    }

    static synchronized void report(String line) {
        System.out.println(LINE + line);
        System.out.flush();
    }

    /** Reports when each upload starts. */
    @Bean
    UploadListener uploading() {
        return new UploadListener() {
            @Override
            public void uploadStarted(UploadEvent upload, Duration queued) {
                report("uploading " + upload.key());
            }
        };
    }

    @Bean
    ApplicationRunner workload(ConcurrentAttachmentUploader uploader) {
        return args -> {
            submit(uploader, "slow", List.of(attachment("slow/small-1.bin", SMALL),
                    attachment("slow/small-2.bin", SMALL), attachment("slow/large.bin", LARGE)));
            submit(uploader, "medium", List.of(attachment("medium/medium.bin", MEDIUM)));
            report("started");
        };
    }

    /** Small batches, one after another, from the moment the context starts closing, until one is refused. */
    @Bean
    ApplicationListener<ContextClosedEvent> lateBatches(ConcurrentAttachmentUploader uploader) {
        return event -> {
            Thread late = new Thread(() -> {
                for (int i = 0; ; i++) {
                    Attachment attachment = attachment("late/" + i + ".bin", 1024);
                    String key = attachment.key().orElseThrow();
                    try {
                        report("submitted " + key + " 1024");
                        report(uploader.uploadAll(List.of(attachment)));
                    } catch (BatchFailedException e) {
                        report(e.result());
                    } catch (UploaderClosedException e) {
                        report("refused " + key + " " + e.getMessage());
                        return;
                    } catch (RuntimeException e) {
                        report("failed " + key + " " + e);
                        return;
                    }
                }
            }, "late-batches");
            late.start();
        };
    }

    private static Attachment attachment(String key, int size) {
        return Attachment.builder(key.substring(key.lastIndexOf('/') + 1),
                AttachmentContent.ofBytes(TestData.bytes(key.hashCode(), size))).key(key).build();
    }

    /** Submits a batch without waiting; when it ends, reports how each of its attachments ended. */
    private static void submit(ConcurrentAttachmentUploader uploader, String name, List<Attachment> batch) {
        batch.forEach(attachment -> report("submitted " + attachment.key().orElseThrow() + " "
                + attachment.content().length().orElseThrow()));
        uploader.uploadAllAsync(batch).whenComplete((result, failure) -> {
            Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
            if (result != null) {
                report(result);
            } else if (cause instanceof BatchFailedException) {
                report(((BatchFailedException) cause).result());
            } else {
                report("failed " + name + " " + cause);
            }
        });
    }

    private static void report(BatchResult result) {
        for (UploadResult each : result.results()) {
            report("result " + each.key() + " " + each.status());
        }
    }
}
