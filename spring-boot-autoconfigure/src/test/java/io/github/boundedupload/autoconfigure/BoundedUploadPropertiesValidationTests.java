package io.github.boundedupload.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Invalid values stop the application at start-up, and the message names the property and what it allows. */
@ExtendWith(OutputCaptureExtension.class)
class BoundedUploadPropertiesValidationTests {

    @TempDir
    Path root;

    private ApplicationContextRunner runner() {
        return TestSupport.runner(root);
    }

    private void assertFailure(String property, String... expected) {
        runner().withPropertyValues(property).run(context -> {
            assertThat(context).hasFailed();
            assertThat(TestSupport.messages(context.getStartupFailure())).contains(expected);
        });
    }

    @Test
    void adaptiveConcurrencyInitialLimitBelowOne() {
        assertFailure("bounded-upload.adaptive-concurrency.initial-limit=0", "field 'adaptiveConcurrency.initialLimit'",
                "must be at least 1, was 0");
    }

    @Test
    void adaptiveConcurrencyWithoutTheLibrary() {
        runner().withClassLoader(new FilteredClassLoader("com.netflix.concurrency.limits"))
                .withPropertyValues("bounded-upload.adaptive-concurrency.enabled=true").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(TestSupport.messages(context.getStartupFailure())).contains(
                            "field 'adaptiveConcurrency.enabled'", "com.netflix.concurrency-limits:concurrency-limits-core");
                });
    }

    @Test
    void negativeSize() {
        assertFailure("bounded-upload.max-bytes-in-flight=-1B", "field 'maxBytesInFlight'",
                "must be at least 1, was -1");
    }

    @Test
    void zeroAttachmentSize() {
        assertFailure("bounded-upload.max-attachment-size=0", "field 'maxAttachmentSize'", "must be at least 1");
    }

    @Test
    void perBatchAboveTheOverallMaximum() {
        assertFailure("bounded-upload.max-concurrent-uploads-per-batch=65", "field 'maxConcurrentUploadsPerBatch'",
                "must be from 1 to bounded-upload.max-concurrent-uploads (64), was 65");
    }

    @Test
    void queueSmallerThanABatch() {
        assertFailure("bounded-upload.max-queued-uploads=999", "field 'maxQueuedUploads'",
                "must be at least bounded-upload.max-attachments-per-batch (1000)");
    }

    @Test
    void zeroTimeout() {
        assertFailure("bounded-upload.upload-timeout=0s", "field 'uploadTimeout'", "must be a positive duration");
    }

    @Test
    void negativeGracePeriod() {
        assertFailure("bounded-upload.shutdown-grace-period=-1s", "field 'shutdownGracePeriod'",
                "must be zero or more");
    }

    @Test
    void zeroHealthTimeout() {
        assertFailure("bounded-upload.health.timeout=0s", "field 'health.timeout'",
                "must be a positive duration, was PT0S");
    }

    @Test
    void invalidName() {
        assertFailure("bounded-upload.name=no spaces", "field 'name'",
                "must be 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }

    @Test
    void invalidKeyPrefix() {
        assertFailure("bounded-upload.key-prefix=../up", "field 'keyPrefix'", "invalid key prefix '../up'");
    }

    @Test
    void unknownEnumValue() {
        assertFailure("bounded-upload.rejection-policy=drop", "bounded-upload.rejection-policy",
                "RejectionPolicy");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsWhereTheJvmHasNone() {
        assertFailure("bounded-upload.executor.type=virtual", "field 'executor.type'",
                "must be AUTO or PLATFORM on Java", "VIRTUAL needs Java 21 or later");
    }

    // ---- S3: checked only with a bucket, by the adapter's rules -------------------------------------------------

    private void assertS3Failure(String property, String... expected) {
        assertS3Failure(List.of(property), expected);
    }

    private void assertS3Failure(List<String> properties, String... expected) {
        TestSupport.bucketRunner("b").withPropertyValues(properties.toArray(String[]::new))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(TestSupport.messages(context.getStartupFailure())).contains(expected);
                });
    }

    @Test
    void partSizeBelowS3sMinimum() {
        assertS3Failure("bounded-upload.s3.part-size=1MB", "field 's3.partSize'",
                "must be from 5242880 to 5368709120, was 1048576");
    }

    @Test
    void multipartThresholdAboveS3sMaximum() {
        assertS3Failure("bounded-upload.s3.multipart-threshold=6GB", "field 's3.multipartThreshold'",
                "must be from 5242880 to 5368709120, was 6442450944");
    }

    @Test
    void zeroPartsInFlight() {
        assertS3Failure("bounded-upload.s3.parts-in-flight=0", "field 's3.partsInFlight'", "must be at least 1, was 0");
    }

    @Test
    void zeroMaxConcurrency() {
        assertS3Failure("bounded-upload.s3.max-concurrency=0", "field 's3.maxConcurrency'",
                "must be at least 1, was 0");
    }

    @Test
    void aKmsKeyWithoutKmsEncryption() {
        assertS3Failure("bounded-upload.s3.kms-key-id=alias/uploads", "field 's3.kmsKeyId'",
                "needs bounded-upload.s3.server-side-encryption aws:kms or aws:kms:dsse, was null");
    }

    @Test
    void unknownStorageClass() {
        assertS3Failure("bounded-upload.s3.storage-class=cold", "field 's3.storageClass'",
                "must be one of STANDARD, REDUCED_REDUNDANCY, STANDARD_IA,", ", was cold");
    }

    @Test
    void unknownChecksumAlgorithm() {
        assertS3Failure("bounded-upload.s3.checksum-algorithm=md5", "bounded-upload.s3.checksum-algorithm",
                "ChecksumAlgorithm");
    }

    @Test
    void unknownLocation() {
        assertS3Failure("bounded-upload.s3.location=cdn", "bounded-upload.s3.location", "Location");
    }

    @Test
    void presignedUrlsLongerThanSigV4Allows() {
        assertS3Failure(List.of("bounded-upload.s3.location=presigned", "bounded-upload.s3.presigned-url-ttl=8d"),
                "field 's3.presignedUrlTtl'",
                "must be positive and at most 7d (SigV4's limit), was PT192H");
    }

    @Test
    void anEndpointThatIsNotHttp() {
        assertS3Failure("bounded-upload.s3.endpoint=localhost:4566", "field 's3.endpoint'",
                "must be an http or https URL such as http://127.0.0.1:4566, was localhost:4566");
    }

    /** With a bucket, uploads go to S3: a root beside it cannot take effect, and fails start-up as a misspelt key. */
    @Test
    void aLocalRootBesideABucketFailsStartUpSayingWhyAndWhatToDo(CapturedOutput output) {
        runner().withPropertyValues("bounded-upload.s3.bucket=b").run(context -> {
            assertThat(context).hasFailed();
            assertThat(TestSupport.messages(context.getStartupFailure())).contains("field 'local.root'",
                    "cannot take effect: bounded-upload.s3.bucket is set, so uploads go to S3; set one of the two"
                            + " (local.root in a profile without the bucket, say)");
        });
        assertThatThrownBy(() -> start("--bounded-upload.s3.bucket=b", "--bounded-upload.local.root=" + root))
                .isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("Property: bounded-upload.local.root")
                .contains("Reason: cannot take effect: bounded-upload.s3.bucket is set");
    }

    @Test
    void aBlankBucket() {
        TestSupport.bucketRunner(" ").run(context -> {
            assertThat(context).hasFailed();
            assertThat(TestSupport.messages(context.getStartupFailure())).contains("field 's3.bucket'",
                    "must not be blank (leave it unset for no S3 storage)");
        });
    }

    @Test
    void s3SettingsDoNotMatterWithoutABucket() {
        runner().withPropertyValues("bounded-upload.s3.part-size=1MB", "bounded-upload.s3.presigned-url-ttl=8d")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void theStartUpReportNamesTheS3PropertyAndTheRule(CapturedOutput output) {
        assertThatThrownBy(() -> start("--bounded-upload.s3.bucket=b", "--bounded-upload.s3.parts-in-flight=0"))
                .isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Property: bounded-upload.s3.partsInFlight")
                .contains("Value: \"0\"")
                .contains("Reason: must be at least 1, was 0");
    }

    @Test
    void theStartUpReportListsTheAllowedValuesOfAnS3Enum(CapturedOutput output) {
        assertThatThrownBy(() -> start("--bounded-upload.s3.bucket=b", "--bounded-upload.s3.checksum-algorithm=md5"))
                .isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("bounded-upload.s3.checksum-algorithm")
                .contains("The following values are valid:").contains("CRC32C").contains("SHA256");
    }

    /** What a user reads: Spring Boot's failure analysis names the property, its value and origin, and the rule. */
    @Test
    void theStartUpReportNamesThePropertyAndTheRule(CapturedOutput output) {
        assertThatThrownBy(() -> start("--bounded-upload.max-concurrent-uploads-per-batch=65")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Property: bounded-upload.maxConcurrentUploadsPerBatch")
                .contains("Value: \"65\"")
                .contains("Origin: \"bounded-upload.max-concurrent-uploads-per-batch\" from property source")
                .contains("Reason: must be from 1 to bounded-upload.max-concurrent-uploads (64), was 65");
    }

    @Test
    void theStartUpReportListsTheAllowedValuesOfAnEnum(CapturedOutput output) {
        assertThatThrownBy(() -> start("--bounded-upload.failure-policy=sometimes")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("bounded-upload.failure-policy")
                .contains("The following values are valid:").contains("ALL_OR_NOTHING").contains("COLLECT");
    }

    /** Our failure analyzer is registered, so a customizer's mistake gets a description and an action too. */
    @Test
    void theStartUpReportExplainsACustomizersMistake(CapturedOutput output) {
        assertThatThrownBy(() -> start(BrokenCustomizer.class)).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("The bounded-upload configuration is invalid after the UploaderConfigCustomizer beans were"
                        + " applied: maxAttachmentsPerBatch must be at least 1, was 0")
                .contains("Change the UploaderConfigCustomizer bean that sets this value.");
    }

    /**
     * A misspelt key would leave the application without the setting it was meant to have (here: no bucket, so no
     * S3), silently: start-up fails with one line naming the key, where it was set, and the key meant.
     */
    @Test
    void aMisspeltKeyFailsStartUpNamingTheNearestValidKey(CapturedOutput output) {
        assertThatThrownBy(() -> start("--bounded-upload.s3.buckt=attachments")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains("Unknown bounded-upload property "
                + "bounded-upload.s3.buckt (\"bounded-upload.s3.buckt\" from property source \"commandLineArgs\"): "
                + "did you mean bounded-upload.s3.bucket?\n");
    }

    @Test
    void everyUnknownKeyIsNamedOnOneLine() {
        runner().withPropertyValues("bounded-upload.max-concurent-uploads=3", "bounded-upload.journal.enable=true",
                "bounded-upload.local.rot=/tmp").run(context -> {
                    assertThat(context).hasFailed();
                    String description = new BoundedUploadFailureAnalyzer().analyze(context.getStartupFailure())
                            .getDescription();
                    assertThat(description).doesNotContain("\n").isEqualTo("Unknown bounded-upload properties "
                            + "bounded-upload.max-concurent-uploads (\"bounded-upload.max-concurent-uploads\" from "
                            + "property source \"test\"): did you mean bounded-upload.max-concurrent-uploads?; "
                            + "bounded-upload.journal.enable (\"bounded-upload.journal.enable\" from property source "
                            + "\"test\"): did you mean bounded-upload.journal.enabled?; bounded-upload.local.rot "
                            + "(\"bounded-upload.local.rot\" from property source \"test\"): did you mean "
                            + "bounded-upload.local.root?");
                });
    }

    /** Spring Boot's relaxed forms of a valid key are valid: camel case, underscores, upper case. */
    @Test
    void relaxedFormsOfValidKeysAreKnown() {
        runner().withPropertyValues("bounded-upload.maxConcurrentUploads=32", "bounded-upload.max_queued_uploads=2000",
                "bounded-upload.s3.pathStyleAccess=true", "bounded-upload.journal.deferred.max-staged-size=1MB")
                .run(context -> assertThat(context).hasNotFailed());
    }

    /**
     * Environment variables and system properties are shared by the whole process, and other tools read names there
     * too (the test services' BOUNDED_UPLOAD_CACHE, this build's own -Dbounded-upload.docs.dir).
     */
    @Test
    void environmentVariablesAndSystemPropertiesAreNotChecked() {
        runner().withSystemProperties("bounded-upload.some-tool=1").withInitializer(context -> context.getEnvironment()
                .getPropertySources().addLast(new org.springframework.core.env.SystemEnvironmentPropertySource(
                        "systemEnvironment", java.util.Map.of("BOUNDED_UPLOAD_CACHE", "/tmp/cache"))))
                .run(context -> assertThat(context).hasNotFailed());
    }

    private void start(String... args) {
        start(App.class, args);
    }

    private void start(Class<?> source, String... args) {
        // A root only where no bucket is given: beside one, it cannot take effect.
        String storage = List.of(args).stream().anyMatch(arg -> arg.startsWith("--bounded-upload.s3.bucket="))
                ? "spring.main.lazy-initialization=false" : "bounded-upload.local.root=" + root;
        new SpringApplicationBuilder(App.class, source).web(WebApplicationType.NONE)
                .properties(storage, "spring.main.banner-mode=off").run(args).close();
    }

    @Configuration(proxyBeanMethods = false)
    static class BrokenCustomizer {
        @Bean
        UploaderConfigCustomizer broken() {
            return builder -> builder.maxAttachmentsPerBatch(0);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ BoundedUploadAutoConfiguration.class, BoundedUploadMetricsAutoConfiguration.class,
            BoundedUploadHealthAutoConfiguration.class })
    static class App {
    }
}
