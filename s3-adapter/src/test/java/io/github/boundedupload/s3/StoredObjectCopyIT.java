package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Objects a client put into the bucket itself (as a browser does with a presigned URL), confirmed as one batch of
 * {@link AttachmentContent#ofStoredObject(StoredObject)}: each is checked against what the client said it would be
 * and copied under the batch's keys inside S3. All or nothing holds for copies as for uploads: one object unlike its
 * description fails the batch, and the copies already made are deleted; the objects copied from stay for the caller.
 */
class StoredObjectCopyIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("copies");
    /** One pair of clients for the class: closing a non-blocking client takes its event loop's quiet period. */
    static Adapters adapters;

    @BeforeAll
    static void setUp() {
        // Parts of 5 MiB above 5 MiB: a copy of more than that is a multipart upload of copied parts.
        adapters = new Adapters(S3TestServices.get().s3Endpoint(), s3.bucket().name(), Adapters.smallParts());
    }

    @AfterAll
    static void tearDown() {
        adapters.close();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBatchOfStoredObjectsIsCopiedUnderItsKeys(Kind kind) {
        try (ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config("copied-" + kind))) {
            List<StoredObject> staged = stage("staging-ok-" + kind, 3);

            BatchResult result = uploader.uploadAll(attachments(staged));

            assertThat(result.allStored()).isTrue();
            for (int i = 0; i < staged.size(); i++) {
                StoredObject copy = result.results().get(i).storedObject().orElseThrow();
                assertThat(copy.key()).startsWith("copied-" + kind);
                assertThat(copy.size()).isEqualTo(staged.get(i).size());
                assertThat(s3.bucket().read(copy.key())).contains(TestData.bytes(i, (int) staged.get(i).size()));
                assertThat(s3.bucket().head(copy.key()).orElseThrow().contentType()).isEqualTo("image/png");
            }
            assertThat(s3.bucket().keys("staging-ok-" + kind)).hasSize(3);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void oneObjectUnlikeItsDescriptionFailsTheBatchAndNoCopyIsLeft(Kind kind) {
        try (ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config("rolled-back-" + kind))) {
            List<StoredObject> staged = new ArrayList<>(stage("staging-bad-" + kind, 3));
            StoredObject lying = staged.get(2);
            staged.set(2, StoredObject.builder(lying.key(), lying.size() + 1).build()); // the client said another size

            assertThatThrownBy(() -> uploader.uploadAll(attachments(staged)))
                    .isInstanceOfSatisfying(BatchFailedException.class, failed -> {
                        assertThat(failed.failures()).extracting(UploadResult::index).containsExactly(2);
                        assertThat(failed.failures().get(0).failure().orElseThrow())
                                .hasMessageContaining("not the " + (lying.size() + 1) + " it was said to have");
                    });
            assertThat(s3.bucket().keys("rolled-back-" + kind)).isEmpty();
            assertThat(s3.bucket().keys("staging-bad-" + kind)).hasSize(3);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anObjectAboveTheMultipartThresholdIsCopiedInParts(Kind kind) {
        try (ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config("parts-" + kind))) {
            String key = "staging-large-" + kind;
            byte[] bytes = TestData.bytes(9, (int) Adapters.LARGE);
            adapters.client.putObject(b -> b.bucket(s3.bucket().name()).key(key), RequestBody.fromBytes(bytes));

            BatchResult result = uploader.uploadAll(List.of(Attachment.of("large.bin", AttachmentContent
                    .ofStoredObject(StoredObject.builder(key, bytes.length).build()))));

            StoredObject copy = result.storedObjects().get(0);
            assertThat(copy.size()).isEqualTo(bytes.length);
            assertThat(s3.bucket().read(copy.key())).contains(bytes);
            assertThat(s3.bucket().incompleteUploads()).isEmpty();
        }
    }

    private static UploaderConfig config(String prefix) {
        return UploaderConfig.builder().name("copies").failurePolicy(FailurePolicy.ALL_OR_NOTHING)
                .keyStrategy(KeyStrategy.datedUuid(prefix)).build();
    }

    /** Objects put by "the client", each described as it said it would be: key, size, CRC32 checksum. */
    private static List<StoredObject> stage(String prefix, int count) {
        List<StoredObject> staged = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = prefix + "/" + i;
            byte[] bytes = TestData.bytes(i, 10_000 + 7_000 * i);
            PutObjectResponse put = adapters.client.putObject(b -> b.bucket(s3.bucket().name()).key(key)
                    .checksumAlgorithm(ChecksumAlgorithm.CRC32), RequestBody.fromBytes(bytes));
            staged.add(StoredObject.builder(key, bytes.length).checksum("CRC32", put.checksumCRC32()).build());
        }
        return staged;
    }

    private static List<Attachment> attachments(List<StoredObject> staged) {
        List<Attachment> attachments = new ArrayList<>();
        for (int i = 0; i < staged.size(); i++) {
            attachments.add(Attachment.builder("photo-" + i + ".png", AttachmentContent.ofStoredObject(staged.get(i)))
                    .contentType("image/png").build());
        }
        return attachments;
    }
}
