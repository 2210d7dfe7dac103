package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * {@link S3AsyncFileUploader.Builder#closeTimeout(Duration)} bounds how long {@code close()} waits for the clean-up of
 * cancelled uploads, so that a shutdown fits its budget (the Spring Boot starter's drain) even while S3 does not
 * answer; the clean-up itself goes on.
 */
class CloseTimeoutIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("close-timeout");

    @Test
    void closeWaitsForTheCleanUpOfCancelledUploadsNoLongerThanItsCloseTimeout() throws Exception {
        try (S3AsyncClient client = S3TestServices.get().s3AsyncClientBuilder(s3.proxy().endpoint()).build()) {
            S3AsyncFileUploader storage = S3AsyncFileUploader.builder(client, s3.bucket().name())
                    .closeTimeout(Duration.ofSeconds(1)).build();
            // S3 stops answering: the upload, and the clean-up its cancel starts (each clean-up request may take
            // 10 s), wait for answers that do not come.
            s3.proxy().toxiproxy().toxics().timeout("silent", ToxicDirection.DOWNSTREAM, 0);
            CompletableFuture<Void> cancel = new CompletableFuture<>();
            AtomicLong sent = new AtomicLong();
            CompletableFuture<StoredObject> upload = storage.upload(UploadRequest.builder("silent.bin",
                    Attachment.of("silent.bin", TestData.bytes(1, 4096))).progress(sent::set).cancellation(cancel)
                    .build());
            // Sent whole, answer held back: S3 may have stored it, so the cancelled upload has to look and delete.
            await().atMost(Duration.ofSeconds(30)).until(() -> sent.get() == 4096);
            cancel.complete(null);

            assertTimeoutPreemptively(Duration.ofSeconds(8), storage::close, "close() waits 1 s, not the clean-up");
            assertThat(upload).as("the clean-up still runs after close()").isNotDone();

            s3.proxy().heal();
            await().atMost(Duration.ofMinutes(1)).until(upload::isDone);
            assertThat(s3.bucket().exists("silent.bin")).isFalse();
        }
    }

    @Test
    void aNegativeCloseTimeoutIsRefused() {
        try (S3AsyncClient client = S3TestServices.get().s3AsyncClientBuilder(s3.proxy().endpoint()).build()) {
            assertThatThrownBy(() -> S3AsyncFileUploader.builder(client, "b").closeTimeout(Duration.ofSeconds(-1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("closeTimeout must be zero or more, was "
                            + "PT-1S");
        }
    }
}
