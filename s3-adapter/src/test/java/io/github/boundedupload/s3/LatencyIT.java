package io.github.boundedupload.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.Adapters.Kind;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.S3TestServices;
import io.github.boundedupload.testsupport.TestData;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * Latency in front of LocalStack (Toxiproxy, on responses), so that what is measured is the uploader, not the Python
 * server. Timings are compared as ratios within one run: the machine is shared and noisy.
 */
class LatencyIT {

    static final S3TestServices services = S3TestServices.get();
    @RegisterExtension
    static final S3Fixture s3 = S3Fixture.bucketAndProxy("latency");

    /** 100 files at 20 at a time take about 5 round trips, not 100: the uploads really overlap. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBatchOf100SmallFilesAtConcurrency20TakesAboutFiveRoundTrips(Kind kind) throws Exception {
        long latency = 100;
        String prefix = "batch-" + kind.name().toLowerCase();
        List<Attachment> batch = IntStream.range(0, 100)
                .mapToObj(i -> Attachment.of("small-" + i + ".txt", TestData.bytes(i, 1024))).toList();
        UploaderConfig config = UploaderConfig.builder().maxConcurrentUploads(20).maxConcurrentUploadsPerBatch(20)
                .keyStrategy(KeyStrategy.datedUuid(prefix)).build();
        try (Adapters adapters = new Adapters(s3.proxy().endpoint(), s3.bucket().name(),
                S3UploadOptions.builder().maxConcurrency(20).build());
                ConcurrentAttachmentUploader uploader = adapters.uploader(kind, config)) {
            // Warm 20 connections first, under the latency so that 20 really overlap: a new connection costs the
            // client some work (not a round trip: its handshake is with the local proxy), which is not what is timed.
            s3.proxy().toxiproxy().toxics().latency("latency", ToxicDirection.DOWNSTREAM, latency);
            assertThat(uploader.uploadAll(batch.subList(0, 20)).allStored()).isTrue();

            long start = System.nanoTime();
            BatchResult result = uploader.uploadAll(batch);
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            System.out.printf("LatencyIT %s: 100 uploads at concurrency 20 with %d ms latency took %d ms"
                    + " (%.1f x latency; sequential would be %d ms)%n", kind, latency, took, took / (double) latency,
                    100 * latency);
            assertThat(result.allStored()).isTrue();
            assertThat(s3.bucket().keys(prefix + "/")).hasSize(120);
            assertThat(took).as("elapsed ms").isGreaterThanOrEqualTo(5 * latency).isLessThan(30 * latency);
        }
    }

    /**
     * What {@code Expect: 100-continue} costs, and what the SDK's threshold (1 MiB, the setting the adapters rely on)
     * buys: one round trip for a small PUT (timed: one round trip against two is a margin noise cannot close), the
     * handshake (and S3's early refusal) for a large one (seen on the wire: a 2 MiB transfer through a busy LocalStack
     * varies by as much as the round trip). Prints the medians.
     */
    @Test
    void expectContinueCostsARoundTripOnlyAboveTheThreshold() throws Exception {
        long latency = 150;
        s3.proxy().toxiproxy().toxics().latency("latency", ToxicDirection.DOWNSTREAM, latency);
        byte[] small = TestData.bytes(1, 1024);
        byte[] large = TestData.bytes(2, 2 * 1024 * 1024);
        StringBuilder table = new StringBuilder("LatencyIT Expect: 100-continue, " + latency
                + " ms latency, median of 5 PUTs (ms):\n");
        long[][] medians = new long[3][4];
        Map<String, Boolean> handshake = new ConcurrentHashMap<>();
        ExecutionInterceptor wire = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof PutObjectRequest) {
                    handshake.put(((PutObjectRequest) context.request()).contentLength() + "-" + attributes
                            .getAttribute(SETTING), context.httpRequest().firstMatchingHeader("Expect")
                            .filter("100-continue"::equalsIgnoreCase).isPresent());
                }
            }
        };
        String[] settings = {"SDK default (threshold 1 MiB)", "always (threshold 0)", "never (disabled)"};
        List<UnaryOperator<S3Configuration.Builder>> configs = List.of(c -> c,
                c -> c.expectContinueThresholdInBytes(0L), c -> c.expectContinueEnabled(false));
        for (int s = 0; s < settings.length; s++) {
            UnaryOperator<S3Configuration.Builder> config = configs.get(s);
            S3Configuration configuration = config.apply(S3Configuration.builder()).build();
            String setting = settings[s];
            try (Adapters adapters = new Adapters(s3.proxy().endpoint(), s3.bucket().name(), S3UploadOptions.defaults(),
                    b -> b.serviceConfiguration(configuration).overrideConfiguration(o -> o.addExecutionInterceptor(wire)
                            .putExecutionAttribute(SETTING, setting)),
                    b -> b.serviceConfiguration(configuration).overrideConfiguration(o -> o.addExecutionInterceptor(wire)
                            .putExecutionAttribute(SETTING, setting)))) {
                int column = 0;
                for (Kind kind : Kind.values()) {
                    for (byte[] body : new byte[][] {small, large}) {
                        medians[s][column++] = median(adapters, kind, body);
                    }
                }
            }
            table.append(String.format("  %-32s blocking 1 KiB %4d, 2 MiB %4d | non-blocking 1 KiB %4d, 2 MiB %4d%n",
                    settings[s], medians[s][0], medians[s][1], medians[s][2], medians[s][3]));
        }
        System.out.print(table);

        for (int column : new int[] {0, 2}) { // 1 KiB, both adapters
            assertThat(medians[0][column]).as("small PUT, SDK default: one round trip\n" + table)
                    .isLessThan(latency * 3 / 2);
            assertThat(medians[1][column]).as("small PUT, always: two round trips\n" + table)
                    .isGreaterThan(latency * 17 / 10);
        }
        assertThat(handshake).as("Expect: 100-continue sent, by size and setting").containsOnly(
                entry(small.length + "-" + settings[0], false), entry(large.length + "-" + settings[0], true),
                entry(small.length + "-" + settings[1], true), entry(large.length + "-" + settings[1], true),
                entry(small.length + "-" + settings[2], false), entry(large.length + "-" + settings[2], false));
    }

    private static final ExecutionAttribute<String> SETTING = new ExecutionAttribute<>("bounded-upload.setting");

    private static long median(Adapters adapters, Kind kind, byte[] body) throws Exception {
        long[] took = new long[6];
        for (int i = 0; i < took.length; i++) {
            UploadRequest request = UploadRequest.of("continue/" + kind + "-" + body.length,
                    Attachment.of("body.bin", body));
            long start = System.nanoTime();
            if (kind == Kind.BLOCKING) {
                adapters.blocking.upload(request);
            } else {
                adapters.nonBlocking.upload(request).get(1, TimeUnit.MINUTES);
            }
            took[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        // The first PUT opens the connection: left out.
        long[] timed = Arrays.copyOfRange(took, 1, took.length);
        Arrays.sort(timed);
        return timed[timed.length / 2];
    }
}
