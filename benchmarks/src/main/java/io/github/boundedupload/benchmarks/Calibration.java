package io.github.boundedupload.benchmarks;

import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * What the ideals are computed from, measured on this machine in the same run, with the plainest client (the
 * blocking SDK client, no library). Changes when what the ideals are computed from, or how it is measured, changes.
 * It measures:
 *
 * <ul>
 *   <li>one PutObject's latency through the proxy at 150 ms (200 KiB, scenario A) and at 50 ms (256 KiB, scenario
 *       B): the median of 10, one at a time, after 3 to warm up;</li>
 *   <li>single-stream throughput straight to the S3 server: one of scenario C's files in one PutObject, median of 3,
 *       and the same file in parts of 8 MiB, one after another (what multipart costs on this server); and the same
 *       PutObject through the proxy (what bytes cost there: the bandwidth term of A's and B's ideals);</li>
 *   <li>the plainest client at the concurrency of A and of B, through the proxy: plain threads, one PutObject each
 *       (a floor for any uploader there: what it needs above the ideal is the server's, on the same cores).</li>
 * </ul>
 */
final class Calibration {

    private Calibration() {
    }

    static void run(Scale scale) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("scenario", "calibration");
        List<Item> bFiles = DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
        Path file = DataFiles.ensure("c", Scenario.C_FILES, scale.cFileBytes()).get(0);
        try (S3Target proxied = S3Target.behindLatency("calibrate", Scenario.A_LATENCY);
                S3Client client = proxied.backend().syncClient(1)) {
            result.put("latencyAMs", medianPutMillis(client, proxied.bucketName(), Scenario.A_SIZE));
            result.put("aPlainMs", plainMillis(proxied, Scenario.A_FILES, ScenarioA.attachments(),
                    ScenarioA.WARM_UP_UPLOADS, ScenarioA.WARM_UP_TIME, 5));
            proxied.latency(Scenario.B_LATENCY);
            result.put("latencyBMs", medianPutMillis(client, proxied.bucketName(), Scenario.B_SIZE));
            result.put("bPlainMs", plainMillis(proxied, Scenario.B_CONCURRENCY, bFiles, ScenarioB.warmUpUploads(scale),
                    ScenarioB.warmUpTime(scale), scale.runs()));
            result.put("proxyMBps", scale.cFileBytes() / 1e6 / medianSeconds(proxied, key -> client.putObject(
                    b -> b.bucket(proxied.bucketName()).key(key), RequestBody.fromFile(file))));
        }
        try (S3Target direct = S3Target.direct("calibrate");
                S3Client client = direct.backend().syncClient(1)) {
            result.put("streamMBps", scale.cFileBytes() / 1e6 / medianSeconds(direct, key -> client.putObject(
                    b -> b.bucket(direct.bucketName()).key(key), RequestBody.fromFile(file))));
            result.put("multipartMBps", scale.cFileBytes() / 1e6 / medianSeconds(direct,
                    key -> multipartPut(client, direct.bucketName(), key, file)));
        }
        System.out.println(Line.format(result));
    }

    /** One upload of a file, under a key of its own. */
    private interface Put {
        void to(String key) throws IOException;
    }

    /** The median time of 3 uploads, the bucket emptied after each. */
    private static double medianSeconds(S3Target target, Put put) throws IOException {
        double[] seconds = new double[3];
        for (int i = 0; i < seconds.length; i++) {
            long start = System.nanoTime();
            put.to("stream-" + i);
            seconds[i] = (System.nanoTime() - start) / 1e9;
            target.empty();
        }
        return Stats.median(seconds);
    }

    /**
     * The plainest client at a scenario's concurrency, as a reference for what any uploader can do there: a fixed
     * pool of {@code threads} threads, one PutObject each, on a blocking client with as many connections. Warmed up
     * as the scenario warms the strategies up; the median of {@code runs} runs; the bucket is emptied after each.
     */
    private static double plainMillis(S3Target target, int threads, List<Item> items, int warmUploads,
            Duration warmTime, int runs) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        S3Client client = target.backend().syncClient(threads);
        Strategy plain = new Strategy() {
            @Override
            public void upload(List<Item> batch) throws Exception {
                putAll(client, target.bucketName(), pool, batch);
            }

            @Override
            public void close() {
                pool.shutdown();
                client.close();
            }
        };
        try (plain) {
            Runs.warmUpUntilQuiet(plain, round -> Runs.keyed(items, "warm-" + round), warmUploads, warmTime,
                    target::empty);
            double[] millis = new double[runs];
            for (int run = 0; run < runs; run++) {
                long start = System.nanoTime();
                plain.upload(Runs.keyed(items, "plain-" + run));
                millis[run] = (System.nanoTime() - start) / 1e6;
                target.empty();
            }
            return Stats.median(millis);
        }
    }

    /**
     * One file in parts of the adapters' default size, one after another, with the plain client: what a multipart
     * upload costs on this server (LocalStack copies the parts into the object when it completes it).
     */
    private static void multipartPut(S3Client client, String bucket, String key, Path file) throws IOException {
        String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(key)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32)).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] part = new byte[(int) S3UploadOptions.defaults().partSize()];
            for (int number = 1, n; (n = in.readNBytes(part, 0, part.length)) > 0; number++) {
                int partNumber = number;
                UploadPartResponse sent = client.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                        .partNumber(partNumber).checksumAlgorithm(ChecksumAlgorithm.CRC32),
                        RequestBody.fromBytes(n == part.length ? part : Arrays.copyOf(part, n)));
                parts.add(CompletedPart.builder().partNumber(partNumber).eTag(sent.eTag())
                        .checksumCRC32(sent.checksumCRC32()).build());
            }
        }
        client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                .multipartUpload(m -> m.parts(parts)));
    }

    private static double medianPutMillis(S3Client client, String bucket, int size) {
        byte[] body = TestData.bytes(size, size);
        double[] millis = new double[10];
        for (int i = -3; i < millis.length; i++) {
            long start = System.nanoTime();
            client.putObject(b -> b.bucket(bucket).key("latency-" + size), RequestBody.fromBytes(body));
            if (i >= 0) {
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
        }
        return Stats.median(millis);
    }

    private static void putAll(S3Client client, String bucket, ExecutorService threads, List<Item> items)
            throws Exception {
        List<Callable<Object>> puts = items.stream()
                .<Callable<Object>>map(item -> () -> client.putObject(item.putRequest(bucket), item.requestBody()))
                .toList();
        for (Future<Object> put : threads.invokeAll(puts)) {
            put.get();
        }
    }

    /** The latency a scenario's ideal is computed from: measured for A and B, as configured for the fakes. */
    static Duration latency(Scenario scenario, Scale scale, Map<String, String> calibration) {
        return switch (scenario) {
            case A -> Duration.ofNanos((long) (Double.parseDouble(calibration.get("latencyAMs")) * 1e6));
            case B -> Duration.ofNanos((long) (Double.parseDouble(calibration.get("latencyBMs")) * 1e6));
            default -> scenario.configuredLatency(scale);
        };
    }
}
