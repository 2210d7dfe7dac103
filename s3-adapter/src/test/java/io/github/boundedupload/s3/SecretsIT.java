package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Nothing this library logs or throws contains credentials, presigned query strings or content: checked over
 * successes and every kind of failure, on the whole exception chain (stack traces included) and on every log event
 * of this library (at TRACE) and every warning of anyone.
 */
class SecretsIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("secrets");
    // The test services' own credentials: a server that checks them (versitygw) accepts only those.
    static final String ACCESS_KEY = S3TestServices.ACCESS_KEY;
    static final String SECRET_KEY = S3TestServices.SECRET_KEY;
    static final String MARKER = "CONTENT-MARKER-c0ffee";
    static final List<String> FORBIDDEN = List.of(ACCESS_KEY, SECRET_KEY, MARKER, "X-Amz-Signature",
            "X-Amz-Credential", "Authorization");
    static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Level before;

    @BeforeEach
    void captureLogs() {
        Logger library = (Logger) LoggerFactory.getLogger("io.github.boundedupload");
        before = library.getLevel();
        library.setLevel(Level.TRACE);
        logs.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(logs);
    }

    @AfterEach
    void stopCapturing() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
        ((Logger) LoggerFactory.getLogger("io.github.boundedupload")).setLevel(before);
    }

    private static Adapters adapters(URI endpoint, String bucketName, S3UploadOptions options) {
        UnaryOperator<software.amazon.awssdk.services.s3.S3ClientBuilder> sync = b -> b.credentialsProvider(CREDENTIALS);
        UnaryOperator<software.amazon.awssdk.services.s3.S3AsyncClientBuilder> async =
                b -> b.credentialsProvider(CREDENTIALS);
        return new Adapters(endpoint, bucketName, options, sync, async);
    }

    private static Attachment secretContent(int bytes) {
        byte[] content = MARKER.repeat(bytes / MARKER.length() + 1).substring(0, bytes)
                .getBytes(StandardCharsets.US_ASCII);
        return Attachment.of("secret.txt", content);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void neitherExceptionsNorLogsCarrySecrets(Kind kind) throws Exception {
        List<Object> seen = new ArrayList<>();
        String key = "secrets/" + UUID.randomUUID();
        try (S3Presigner presigner = S3Presigner.builder().region(services.region()).credentialsProvider(CREDENTIALS)
                .endpointOverride(services.s3Endpoint())
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
                Adapters ok = adapters(services.s3Endpoint(), s3.bucket().name(), Adapters.smallParts().toBuilder()
                        .location(S3Location.presignedGet(presigner, Duration.ofMinutes(1))).build());
                Adapters missing = new Adapters(ok.client, ok.asyncClient, "bu-missing-" + UUID.randomUUID(),
                        Adapters.smallParts());
                DenyingS3 denying = new DenyingS3();
                Adapters denied = adapters(denying.endpoint(), s3.bucket().name(), Adapters.smallParts());
                Adapters down = adapters(s3.proxy().endpoint(), s3.bucket().name(), Adapters.smallParts())) {
            StoredObject stored = BadInputIT.upload(ok, kind, UploadRequest.of(key, secretContent(5000)));
            assertThat(stored.location()).hasValueSatisfying(url -> assertThat(url.toString()).contains(
                    "X-Amz-Signature"));
            seen.add(stored.toString());

            seen.add(catchThrowable(() -> BadInputIT.upload(missing, kind, UploadRequest.of(key,
                    secretContent(5000)))));
            seen.add(catchThrowable(() -> BadInputIT.upload(denied, kind, UploadRequest.of(key,
                    secretContent(5000)))));
            AttachmentContent longer = AttachmentContent.ofStream(() -> new ByteArrayInputStream(
                    MARKER.repeat(100).getBytes(StandardCharsets.US_ASCII)), 50);
            seen.add(catchThrowable(() -> BadInputIT.upload(ok, kind, UploadRequest.of(key + "-longer",
                    Attachment.of("longer.txt", longer)))));
            s3.proxy().toxiproxy().disable();
            seen.add(catchThrowable(() -> BadInputIT.upload(down, kind, UploadRequest.of(key + "-down",
                    secretContent(5000)))));
            seen.add(catchThrowable(() -> BadInputIT.upload(down, kind, UploadRequest.of(key + "-down-large",
                    Attachment.of("large.txt", MARKER.repeat(700_000).getBytes(StandardCharsets.US_ASCII))))));
        }

        assertThat(seen).hasSize(6).allSatisfy(thing -> assertThat(thing).isNotNull());
        for (Object thing : seen) {
            String text = thing instanceof Throwable ? stackTrace((Throwable) thing) : thing.toString();
            for (String forbidden : FORBIDDEN) {
                assertThat(text).as("%s", thing).doesNotContain(forbidden);
            }
        }
        assertThat(logs.list).as("log events were captured").isNotEmpty();
        for (ILoggingEvent event : logs.list) {
            String text = event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(event.getThrowableProxy()));
            for (String forbidden : FORBIDDEN) {
                assertThat(text).as("log event %s", event).doesNotContain(forbidden);
            }
        }
    }

    private static String stackTrace(Throwable failure) {
        StringWriter out = new StringWriter();
        failure.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
