package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * 200 attachments from 1 KiB to 5 MiB (log-uniform: many small, a few large), as files, byte arrays, streams of known
 * and of unknown length, in one batch through the core's uploader: every object is in the bucket, byte-identical.
 */
class MixedBatchIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("mixed-batch");
    static final int COUNT = 200;
    static Adapters adapters;
    static final List<Attachment> attachments = new ArrayList<>();
    static final List<String> digests = new ArrayList<>();

    @BeforeAll
    static void setUp(@TempDir Path dir) throws Exception {
        adapters = new Adapters(services.s3Endpoint(), s3.bucket().name(), S3UploadOptions.builder().maxConcurrency(32)
                .build());
        SplittableRandom random = new SplittableRandom(2026);
        for (int i = 0; i < COUNT; i++) {
            long size = Math.round(Math.exp(random.nextDouble(Math.log(1024), Math.log(5 * 1024 * 1024))));
            Path file = TestData.file(dir.resolve("file-" + i + ".bin"), i, size);
            digests.add(TestData.sha256(file));
            String name = "attachment-" + i + ".bin";
            attachments.add(switch (i % 4) {
                case 0 -> Attachment.of(file);
                case 1 -> Attachment.of(name, Files.readAllBytes(file));
                case 2 -> Attachment.of(name, AttachmentContent.ofStream(() -> Files.newInputStream(file), size));
                default -> Attachment.of(name, AttachmentContent.ofStream(() -> Files.newInputStream(file)));
            });
        }
    }

    @AfterAll
    static void tearDown() {
        adapters.close();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void everyAttachmentIsStoredByteIdentical(Kind kind) {
        String prefix = "mixed-" + kind.name().toLowerCase();
        UploaderConfig config = UploaderConfig.builder().name(prefix).maxConcurrentUploads(32)
                .maxConcurrentUploadsPerBatch(32).keyStrategy(KeyStrategy.datedUuid(prefix)).build();
        BatchResult result;
        try (ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            result = uploader.uploadAll(attachments);
        }

        assertThat(result.allStored()).as("%s", result.notStored()).isTrue();
        assertThat(s3.bucket().keys(prefix + "/")).hasSize(COUNT);
        for (UploadResult upload : result.results()) {
            StoredObject stored = upload.storedObject().orElseThrow();
            assertThat(s3.bucket().head(stored.key())).hasValueSatisfying(head ->
                    assertThat(head.contentLength()).isEqualTo(stored.size()));
            assertThat(s3.bucket().sha256(stored.key())).as("object of #%d", upload.index())
                    .contains(digests.get(upload.index()));
        }
    }
}
