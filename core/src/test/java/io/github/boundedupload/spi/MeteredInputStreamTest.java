package io.github.boundedupload.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.fakes.FakeStorage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeteredInputStreamTest {

    @Test
    void aStreamLongerThanItsDeclaredLengthFailsEvenForAReaderThatStopsAtTheLength() {
        UploadRequest request = UploadRequest.of("k", Attachment.of("k", AttachmentContent.ofStream(
                () -> new ByteArrayInputStream(new byte[11]), 10)));

        assertThatThrownBy(() -> {
            try (InputStream in = request.openStream()) {
                in.readNBytes(10);
            }
        }).isInstanceOf(IOException.class).hasMessage("the content yields more bytes than its declared length (10)");
    }

    @Test
    void aStreamOfExactlyItsDeclaredLengthReadsThrough() throws Exception {
        UploadRequest request = UploadRequest.of("k", Attachment.of("k", AttachmentContent.ofStream(
                () -> new ByteArrayInputStream(new byte[10]), 10)));

        try (InputStream in = request.openStream()) {
            assertThat(in.readAllBytes()).hasSize(10);
        }
    }

    @Test
    void aStreamOfUnknownLengthBeyondTheMaximumSizeFailsTheUploadWhileItIsRead() {
        FakeStorage storage = new FakeStorage();
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                UploaderConfig.builder().maxAttachmentSize(1_000).build())) {
            Attachment endless = Attachment.of("endless.bin", AttachmentContent.ofStream(() -> new InputStream() {
                @Override
                public int read() {
                    return 1;
                }
            }));

            assertThatThrownBy(() -> uploader.uploadAll(List.of(endless)))
                    .isInstanceOf(BatchFailedException.class)
                    .hasMessageContaining("the content yields more bytes than the maximum attachment size (1000)");
            assertThat(storage.objects).isEmpty();
        }
    }

    @Test
    void progressIsReportedAsBytesGoOut() throws Exception {
        List<Long> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        UploadRequest request = UploadRequest.builder("k", Attachment.of("k", new byte[600_000]))
                .progress(reports::add).build();

        try (InputStream in = request.openStream()) {
            in.readAllBytes();
        }

        assertThat(reports).containsExactly(262_144L, 524_288L, 600_000L);
    }
}
