package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploadResult.Status;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * Issue 28, item 3: failures no retry can fix (content shorter or longer than declared, a file that is gone or shrank,
 * a key S3 refuses) fail the upload at the first attempt, naming the attachment. The test's own clients count every
 * attempt of a request that goes out (an interceptor sees each transmission, retries included): no request is sent
 * twice. (Before, a lie went out four times, with backoff in between: "SDK Attempt Count: 4".)
 */
class UnfixableFailureIT {

    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucket("unfixable");
    static final int DECLARED = 100_000;

    @TempDir
    static Path dir;

    /** Every transmission of a PutObject or an UploadPart, by key and part: a retry shows as a second one. */
    static final class Transmissions implements ExecutionInterceptor {
        final List<String> sent = new CopyOnWriteArrayList<>();

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (context.request() instanceof PutObjectRequest put) {
                sent.add("put " + put.key());
            } else if (context.request() instanceof UploadPartRequest part) {
                sent.add("part " + part.partNumber() + " " + part.key());
            }
        }
    }

    /** What goes wrong with the attachment, made for a test (the file cases change it once the batch is checked). */
    record Lie(String story, String expected, Function<Path, Attachment> attachment, boolean fileChanges) {
        @Override
        public String toString() {
            return story;
        }
    }

    static List<Lie> lies() {
        List<Lie> lies = new ArrayList<>();
        lies.add(new Lie("a stream shorter than declared", "yielded 50000 bytes, not its declared length of 100000", dir -> Attachment.of(
                "short.bin", AttachmentContent.ofStream(() -> TestData.stream(1, DECLARED / 2), DECLARED)), false));
        lies.add(new Lie("a stream longer than declared", "yields more bytes than its declared length (100000)", dir -> Attachment.of(
                "long.bin", AttachmentContent.ofStream(() -> TestData.stream(2, DECLARED * 2), DECLARED)), false));
        lies.add(new Lie("published content shorter than declared", "the content ended after", dir -> Attachment.of(
                "short-published.bin", AttachmentContent.ofPublisher(() -> TestData.publisher(3, DECLARED / 2),
                        DECLARED)), false));
        lies.add(new Lie("published content longer than declared", "goes on past its length", dir -> Attachment.of(
                "long-published.bin", AttachmentContent.ofPublisher(() -> TestData.publisher(4, DECLARED * 2),
                        DECLARED)), false));
        lies.add(new Lie("a file gone after the check", "gone.bin", dir -> Attachment.of(TestData.file(
                dir.resolve("gone.bin"), 5, DECLARED)), true));
        lies.add(new Lie("a file that shrank after the check", "shrank.bin", dir -> Attachment.of(TestData.file(
                dir.resolve("shrank.bin"), 6, DECLARED)), true));
        lies.add(new Lie("a file that shrank after the check, in parts", "shrank-parts.bin", dir -> Attachment.of(
                TestData.file(dir.resolve("shrank-parts.bin"), 7, Adapters.LARGE)), true));
        return lies;
    }

    static Stream<Arguments> cases() {
        return Stream.of(Kind.values()).flatMap(kind -> lies().stream().map(lie -> Arguments.of(kind, lie)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void contentThatLiesIsSentOnceAndFailsNamingTheAttachment(Kind kind, Lie lie) throws IOException {
        Path files = Files.createDirectories(dir.resolve(kind + "-" + lie.story().replace(' ', '-')));
        Attachment attachment = lie.attachment().apply(files);
        UploadListener changer = new UploadListener() {
            @Override
            public void batchStarted(BatchEvent batch) {
                if (lie.fileChanges()) {
                    change(attachment.content().path().orElseThrow());
                }
            }
        };
        Transmissions transmissions = new Transmissions();
        String prefix = "lies-" + kind;
        try (Adapters adapters = through(transmissions);
                ConcurrentAttachmentUploader uploader = adapters.uploader(kind, UploaderConfig.builder()
                        .failurePolicy(FailurePolicy.COLLECT).keyStrategy(KeyStrategy.datedUuid(prefix))
                        .listener(changer).build())) {
            BatchResult result = uploader.uploadAll(List.of(attachment));

            UploadResult upload = result.results().get(0);
            assertThat(upload.status()).as("%s", upload).isEqualTo(Status.FAILED);
            assertThat(upload.failure()).get().isInstanceOfSatisfying(S3UploadException.class, e -> {
                assertThat(e.getMessage()).contains(attachment.fileName(), lie.expected())
                        .doesNotContain("SDK Attempt Count");
                assertThat(e.mayBeStored()).isFalse();
            });
            assertThat(transmissions.sent).as("requests sent").doesNotHaveDuplicates();
            assertThat(s3.bucket().exists(upload.key())).isFalse();
            assertThat(s3.bucket().incompleteUploads()).noneMatch(u -> u.key().equals(upload.key()));
        }
    }

    /** A key S3 refuses (longer than 1,024 bytes): one request, a clear 400, nothing retried. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aKeyS3RefusesIsSentOnce(Kind kind) {
        Transmissions transmissions = new Transmissions();
        try (Adapters adapters = through(transmissions)) {
            Throwable failure = catchThrowable(() -> BadInputIT.upload(adapters, kind, UploadRequest.of(
                    "k".repeat(1025), Attachment.of("refused.txt", TestData.bytes(8, 1000)))));

            assertThat(failure).isInstanceOfSatisfying(S3UploadException.class, e -> {
                assertThat(e.statusCode()).hasValue(400);
                assertThat(e.getMessage()).contains("refused.txt");
            });
            assertThat(transmissions.sent).hasSize(1);
        }
    }

    /**
     * A part S3 answers with a refusal (here: its CRC32 does not match, so S3 read all of it first) is not a part cut
     * off on its way: the multipart upload is aborted once, without the second abort after the settle time that a part
     * perhaps still travelling needs, and nothing of it is left.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aMultipartUploadWhosePartS3RefusesIsAbortedOnce(Kind kind) {
        List<String> aborts = new CopyOnWriteArrayList<>();
        ExecutionInterceptor refuseSecondPart = new ExecutionInterceptor() {
            @Override
            public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
                if (context.request() instanceof UploadPartRequest part && part.partNumber() == 2) {
                    return part.toBuilder().checksumAlgorithm((String) null).checksumCRC32("AAAAAA==").build();
                }
                return context.request();
            }

            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof AbortMultipartUploadRequest abort) {
                    aborts.add(abort.key());
                }
            }
        };
        String key = "refused-part-" + kind;
        try (Adapters adapters = new Adapters(S3TestServices.get().s3Endpoint(), s3.bucket().name(),
                Adapters.smallParts(), b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(refuseSecondPart)),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(refuseSecondPart)))) {
            Throwable failure = catchThrowable(() -> BadInputIT.upload(adapters, kind, UploadRequest.of(key,
                    Attachment.of(TestData.file(dir.resolve("refused-part-" + kind + ".bin"), 9, Adapters.LARGE)))));

            assertThat(failure).isInstanceOf(S3UploadException.class);
            if (((S3UploadException) failure).statusCode().isPresent()) {
                assertThat(aborts).as("AbortMultipartUpload requests sent").containsExactly(key);
            } else {
                // versitygw sometimes answers before it has read the part, and closes the connection: to the client
                // that part was cut off on its way, and aborting again after the settle time is right.
                assertThat(aborts).as("AbortMultipartUpload requests sent").isNotEmpty().containsOnly(key);
            }
            assertThat(s3.bucket().exists(key)).isFalse();
            assertThat(s3.bucket().incompleteUploads()).noneMatch(u -> u.key().equals(key));
        }
    }

    private static Adapters through(Transmissions transmissions) {
        return new Adapters(S3TestServices.get().s3Endpoint(), s3.bucket().name(), Adapters.smallParts(),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(transmissions)),
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(transmissions)));
    }

    /** Deletes a file named gone, or cuts any other to a third of its size. */
    private static void change(Path file) {
        try {
            if (file.getFileName().toString().startsWith("gone")) {
                Files.delete(file);
                return;
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(Files.size(file) / 3);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
