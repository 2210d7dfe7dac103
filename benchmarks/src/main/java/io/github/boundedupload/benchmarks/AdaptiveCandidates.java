package io.github.boundedupload.benchmarks;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.GradientLimit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import io.github.boundedupload.benchmarks.ScenarioF.Algorithm;
import io.github.boundedupload.benchmarks.ScenarioF.Setting;
import io.github.boundedupload.limits.AdaptiveConcurrency;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The limit algorithms concurrency-limits ships, with their own settings and with settings for a knee, with and
 * without the library's probe of the unloaded latency ({@link AdaptiveConcurrency#probing}): what scenario F measures
 * with {@code -Dbench.f.candidates=true}, and how the default of {@link AdaptiveConcurrency#create} was chosen
 * ({@code docs/performance.md}, "Adaptive limit"). Every one is windowed as the library windows its own (half a second
 * to a second), and its minimum limit is 1 where the library's default is higher. Changes when the candidate limit
 * algorithms, or their settings, change.
 */
final class AdaptiveCandidates {

    /** Vegas backing off at a queue of two uploads, up by half an upload per window, down by a tenth. */
    private static VegasLimit vegasAtTwo(int initial) {
        return VegasLimit.newBuilder().initialLimit(initial).maxConcurrency(ScenarioF.MAX).alpha(2).beta(1)
                .thresholdFunction(limit -> 0).increaseFunction(limit -> limit + 0.5)
                .decreaseFunction(limit -> limit * 0.9).build();
    }

    private static VegasLimit vegas(int initial) {
        return VegasLimit.newBuilder().initialLimit(initial).maxConcurrency(ScenarioF.MAX).build();
    }

    /** Gradient set as the default sets it, but for its smoothing (and the backoff on drops that goes with it). */
    private static GradientLimit gradientAtOne(int initial, double smoothing, double backoff) {
        return GradientLimit.newBuilder().initialLimit(initial).maxConcurrency(ScenarioF.MAX).minLimit(1)
                .rttTolerance(1.0).queueSize(limit -> Math.max(1, limit / 8)).smoothing(smoothing)
                .backoffRatio(backoff).probeInterval(-1).build();
    }

    private static Algorithm windowed(String name, IntFunction<Limit> limit) {
        return new Algorithm(name, initial -> AdaptiveConcurrency.of(WindowedLimit.newBuilder()
                .minWindowTime(500, TimeUnit.MILLISECONDS).maxWindowTime(1, TimeUnit.SECONDS)
                .build(limit.apply(initial))));
    }

    private static Algorithm probing(String name, IntFunction<Limit> limit) {
        return new Algorithm(name, initial -> AdaptiveConcurrency.probing(limit, initial));
    }

    /** The candidates, each measured from 4 and from 32. */
    static final List<Algorithm> ALL = List.of(
            ScenarioF.VEGAS,
            windowed("Vegas, back off at 2 queued, +0.5, x0.9", AdaptiveCandidates::vegasAtTwo),
            probing("Vegas, its settings, probed", AdaptiveCandidates::vegas),
            probing("Vegas, back off at 2 queued, +0.5, x0.9, probed", AdaptiveCandidates::vegasAtTwo),
            windowed("Gradient2, its settings", initial -> Gradient2Limit.newBuilder().initialLimit(initial)
                    .maxConcurrency(ScenarioF.MAX).minLimit(1).build()),
            windowed("Gradient2, tolerance 1, queue 1", initial -> Gradient2Limit.newBuilder().initialLimit(initial)
                    .maxConcurrency(ScenarioF.MAX).minLimit(1).rttTolerance(1.0).queueSize(1).build()),
            windowed("AIMD, its settings", initial -> AIMDLimit.newBuilder().initialLimit(initial)
                    .maxLimit(ScenarioF.MAX).minLimit(1).build()),
            windowed("Gradient, its settings", initial -> GradientLimit.newBuilder().initialLimit(initial)
                    .maxConcurrency(ScenarioF.MAX).minLimit(1).build()),
            windowed("Gradient, tolerance 1, queue 1 or L/8", initial -> gradientAtOne(initial, 1.0, 0.9)),
            probing("Gradient, tolerance 1, queue 1 or L/8, smoothing 0.5, probed",
                    initial -> gradientAtOne(initial, 0.5, 0.8)),
            ScenarioF.DEFAULT);

    private AdaptiveCandidates() {
    }

    /** The median makespan of every setting against the best fixed limit's, as a Markdown table. */
    static String table(List<Setting> settings, List<Map<String, Object>> lines) {
        double best = Double.MAX_VALUE;
        for (Setting setting : settings) {
            if (!setting.adaptive()) {
                best = Math.min(best, median(lines, setting, "makespanMs"));
            }
        }
        StringBuilder table = new StringBuilder(
                "| limit | from | median makespan s | x best fixed | limit after the batches | uploads failed |\n"
                        + "|---|---|---|---|---|---|\n");
        for (Setting setting : settings) {
            List<Double> after = values(lines, setting, "limitAfter");
            double failed = values(lines, setting, "failedUploads").stream().mapToDouble(Double::doubleValue).sum();
            double median = median(lines, setting, "makespanMs");
            table.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %.0f-%.0f | %.0f |%n",
                    setting.adaptive() ? setting.algorithm().name() : setting.label(),
                    setting.adaptive() ? String.valueOf(setting.initial()) : "", median / 1e3, median / best,
                    after.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                    after.stream().mapToDouble(Double::doubleValue).max().orElse(0), failed));
        }
        return table.toString();
    }

    private static List<Double> values(List<Map<String, Object>> lines, Setting setting, String key) {
        List<Double> values = new ArrayList<>();
        for (Map<String, Object> line : lines) {
            if (setting.label().equals(line.get("setting"))) {
                values.add(((Number) line.get(key)).doubleValue());
            }
        }
        return values;
    }

    private static double median(List<Map<String, Object>> lines, Setting setting, String key) {
        List<Double> values = values(lines, setting, key);
        values.sort(null);
        int n = values.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }
}
