package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.TestData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the ideals are computed from, measured on this machine in the same run, with the plainest client (the
 * blocking SDK client, no library):
 *
 * <ul>
 *   <li>one PutObject's latency through the proxy at 150 ms (200 KiB, scenario A) and at 50 ms (256 KiB, scenario
 *       B): the median of 10, one at a time, after 3 to warm up;</li>
 *   <li>single-stream throughput straight to LocalStack: one of scenario C's files in one PutObject, median of 3;</li>
 *   <li>what LocalStack itself allows scenario B: its 1,344 files sent straight to it (no latency) by 50 threads,
 *       median of the runs.</li>
 * </ul>
 */
final class Calibration {

    private Calibration() {
    }

    static void run(Scale scale) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("scenario", "calibration");
        try (LocalStackTarget proxied = LocalStackTarget.behindLatency("calibrate", Scenario.A_LATENCY);
                S3Client client = proxied.backend().syncClient(1)) {
            result.put("latencyAMs", medianPutMillis(client, proxied.bucketName(), Scenario.A_SIZE));
            proxied.latency(Scenario.B_LATENCY);
            result.put("latencyBMs", medianPutMillis(client, proxied.bucketName(), Scenario.B_SIZE));
        }
        try (LocalStackTarget direct = LocalStackTarget.direct("calibrate");
                S3Client client = direct.backend().syncClient(50)) {
            Path file = DataFiles.ensure("c", Scenario.C_FILES, scale.cFileBytes()).get(0);
            double[] seconds = new double[3];
            for (int i = 0; i < seconds.length; i++) {
                String key = "stream-" + i;
                long start = System.nanoTime();
                client.putObject(b -> b.bucket(direct.bucketName()).key(key), RequestBody.fromFile(file));
                seconds[i] = (System.nanoTime() - start) / 1e9;
                direct.empty();
            }
            result.put("streamMBps", scale.cFileBytes() / 1e6 / Stats.median(seconds));

            List<Item> files = DataFiles.items(DataFiles.ensure("b", scale.bFiles(), Scenario.B_SIZE));
            ExecutorService threads = Executors.newFixedThreadPool(50);
            try {
                putAll(client, direct.bucketName(), threads, Runs.keyed(files.subList(0, Math.min(200, files.size())),
                        "warm"));
                direct.empty();
                double[] millis = new double[scale.runs()];
                for (int run = 0; run < millis.length; run++) {
                    long start = System.nanoTime();
                    putAll(client, direct.bucketName(), threads, Runs.keyed(files, "run-" + run));
                    millis[run] = (System.nanoTime() - start) / 1e6;
                    direct.empty();
                }
                result.put("bServerMs", Stats.median(millis));
            } finally {
                threads.shutdown();
            }
        }
        System.out.println(Line.format(result));
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
