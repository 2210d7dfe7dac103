package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Mixed sizes, since real attachments are not all one size (issue 47, item 7): one batch of {@value #FILES} files from
 * disk, from {@value #SMALLEST} bytes to {@value #LARGEST} bytes, log-uniform (as many between 3 and 30 KB as between
 * 3 and 30 MB: most files small, most bytes in a few large ones), drawn from a fixed seed, so every run and every
 * strategy uploads the same files in the same order; the smallest and the largest are always among them; files of
 * {@link Scenario#M_MULTIPART_THRESHOLD} and more would go to this library's multipart path (none, with the S3
 * adapter's default; {@code -Dbench.mMultipartThreshold} lowers it). 32 in flight, 30 ms
 * of latency on every response (Toxiproxy). Warm-up: the batch itself, again and again, until
 * {@link #warmUpUploads} uploads went through and the JIT is quiet (at most {@link #warmUpTime}). Changes when what
 * scenario M uploads, or how it warms up, changes.
 */
final class ScenarioM {

    static final int FILES = 160;
    static final long SMALLEST = 3_000;
    static final long LARGEST = 23_000_000;
    static final long SEED = 47;

    private ScenarioM() {
    }

    /** The sizes of the batch's files, in the batch's order. */
    static List<Long> sizes() {
        Random random = new Random(SEED);
        List<Long> sizes = new ArrayList<>();
        sizes.add(SMALLEST);
        sizes.add(LARGEST);
        double low = Math.log(SMALLEST);
        double high = Math.log(LARGEST);
        while (sizes.size() < FILES) {
            sizes.add(Math.round(Math.exp(low + random.nextDouble() * (high - low))));
        }
        Collections.shuffle(sizes, random);
        return sizes;
    }

    /** The batch's bytes. */
    static long totalBytes() {
        return sizes().stream().mapToLong(Long::longValue).sum();
    }

    /** The files, written once under the data directory and reused while their sizes are right. */
    static List<Item> files() {
        Path dir = Path.of(System.getProperty("bench.data", "benchmarks/target/bench-data")).resolve("m-" + SEED);
        List<Long> sizes = sizes();
        try {
            Files.createDirectories(dir);
            List<Path> files = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) {
                Path file = dir.resolve(String.format("file-%03d.bin", i));
                if (!Files.isRegularFile(file) || Files.size(file) != sizes.get(i)) {
                    TestData.file(file, SEED * 100_003L + i, sizes.get(i));
                }
                files.add(file);
            }
            return DataFiles.items(files);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Uploads to warm up with, at least: five batches in a full run, one in a quick one. */
    static int warmUpUploads(Scale scale) {
        return scale == Scale.FULL ? 5 * FILES : FILES;
    }

    /** The longest warm-up. */
    static Duration warmUpTime(Scale scale) {
        return Duration.ofSeconds(scale == Scale.FULL ? 60 : 15);
    }

    static void run(StrategyKind kind, Scale scale, int round) throws Exception {
        List<Item> files = files();
        try (S3Target target = S3Target.behindLatency("m", Scenario.M_LATENCY);
                Strategy strategy = kind.open(target.backend(), Scenario.M.setup(kind, scale, target.bucketName()))) {
            Runs.warmUpUntilQuiet(strategy, w -> Runs.keyed(files, "warm-" + w), warmUpUploads(scale),
                    warmUpTime(scale), target::empty);
            Runs.measure(Scenario.M, kind, scale, round, strategy, run -> Runs.keyed(files, "run-" + run),
                    target::empty);
        }
    }
}
