package io.github.boundedupload.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scenario F's part of the report: one row per setting of the uploads-in-flight limit ({@link ScenarioF}), the
 * makespans of its interleaved rounds against the best fixed setting's, and the targets of the default adaptive limit,
 * from below the knee and from above it: within 10% of the best hand-tuned fixed limit, and ahead of the default 64
 * where the knee is 8. (Vegas as before is in the table, for comparison, not in the targets.) Changes when what
 * scenario F's part of the report shows, or its targets, change.
 */
final class AdaptiveReport {

    private final Scale scale;
    private final List<Map<String, String>> results;

    AdaptiveReport(Scale scale, List<Map<String, String>> results) {
        this.scale = scale;
        this.results = results.stream().filter(r -> "F".equals(r.get("scenario")) && r.containsKey("setting"))
                .toList();
    }

    /** One setting's runs, as the report's other scenarios keep a strategy's. */
    private Report.Row row(ScenarioF.Setting setting) {
        return new Report.Row(Scenario.F, StrategyKind.LIBRARY_PLATFORM,
                results.stream().filter(r -> r.get("setting").equals(setting.label())).toList(), null);
    }

    private double total(Report.Row row, String key) {
        return Arrays.stream(row.values(key)).sum();
    }

    /** The fixed setting with the lowest median makespan. */
    private ScenarioF.Setting bestFixed() {
        return ScenarioF.SETTINGS.stream().filter(s -> !s.adaptive() && row(s).measured())
                .min((a, b) -> Double.compare(row(a).median("makespanMs"), row(b).median("makespanMs")))
                .orElseThrow();
    }

    private static ScenarioF.Setting defaultFixed() {
        return ScenarioF.SETTINGS.stream().filter(s -> s.fixed() == ScenarioF.MAX).findFirst().orElseThrow();
    }

    String ideal() {
        return f("The proxy answers each request after %d ms up to %d in flight, more slowly past that (%d ms more per "
                + "4 requests over %d), and `503 SlowDown` past %d. Ideal: ceil(N / %d) x %d ms = **%.2f s** (plus "
                + "the server's own time). Every setting runs once per round, %d rounds, the order turning each round.",
                ScenarioF.LATENCY.toMillis(), ScenarioF.KNEE, ScenarioF.LATENCY.toMillis(), ScenarioF.KNEE,
                4 * ScenarioF.KNEE, ScenarioF.KNEE, ScenarioF.LATENCY.toMillis(), idealSeconds(),
                ScenarioF.rounds(scale));
    }

    private double idealSeconds() {
        return Math.ceil(ScenarioF.uploads(scale) / (double) ScenarioF.KNEE) * ScenarioF.LATENCY.toMillis() / 1e3;
    }

    String table() {
        if (results.isEmpty()) {
            return "No results: the scenario failed (see the harness output).\n";
        }
        double bestMedian = row(bestFixed()).median("makespanMs");
        StringBuilder table = new StringBuilder("| limit | makespan s, median (min-max) | x best fixed | x ideal | "
                + "uploads failed | 503 SlowDown answers | most in flight at the server | limit after the batch |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (ScenarioF.Setting setting : ScenarioF.SETTINGS) {
            Report.Row row = row(setting);
            if (!row.measured()) {
                table.append("| ").append(setting.label()).append(" | not measured | | | | | | |\n");
                continue;
            }
            double median = row.median("makespanMs") / 1e3;
            table.append(f("| %s | %.2f (%.2f-%.2f) | %.2f | %.2f | %.0f | %.0f | %.0f | %s |%n", setting.label(),
                    median, row.min("makespanMs") / 1e3, row.max("makespanMs") / 1e3, median * 1e3 / bestMedian,
                    median / idealSeconds(), total(row, "failedUploads"), total(row, "slowDowns"),
                    row.max("mostInFlight"), setting.adaptive()
                            ? f("%.0f-%.0f", row.min("limitAfter"), row.max("limitAfter"))
                            : String.valueOf(setting.fixed())));
        }
        return table.toString();
    }

    /** Scenario F's rows of the report's targets table, each named after {@code scenario} ("F on versitygw"). */
    List<Targets.Verdict> verdicts(String scenario) {
        List<Targets.Verdict> verdicts = new ArrayList<>();
        if (results.isEmpty()) {
            return verdicts;
        }
        ScenarioF.Setting best = bestFixed();
        double bestMedian = row(best).median("makespanMs");
        double bad = row(defaultFixed()).median("makespanMs");
        String strategy = StrategyKind.LIBRARY_PLATFORM.label;
        for (ScenarioF.Setting setting : ScenarioF.SETTINGS) {
            Report.Row row = row(setting);
            if (!setting.theDefault() || !row.measured()) {
                continue;
            }
            double adaptive = row.median("makespanMs");
            double failed = total(row, "failedUploads");
            String why = f("it settled at %.0f-%.0f after the batches where the knee is %d: a queue of one upload is "
                    + "the least concurrency-limits' algorithms tolerate, and past the knee this server makes every "
                    + "extra upload cost more than it brings (docs/performance.md, Adaptive limit)",
                    row.min("limitAfter"), row.max("limitAfter"), ScenarioF.KNEE);
            verdicts.add(Targets.Verdict.of(scenario + ": " + setting.label() + " within 10% of the best fixed limit", strategy,
                    f("%.2f s vs %.2f s (%s), %.2fx; %.0f uploads failed", adaptive / 1e3, bestMedian / 1e3,
                            best.label(), adaptive / bestMedian, failed),
                    adaptive <= 1.10 * bestMedian && failed == 0)
                    .ifMissed(f("%.2fx (%.0f ms)", adaptive / bestMedian - 1.10, adaptive - 1.10 * bestMedian), why));
            verdicts.add(Targets.Verdict.of(scenario + ": " + setting.label() + " clearly ahead of the default 64 where the knee "
                    + "is 8", strategy, f("%.2f s vs %.2f s, %.2fx", adaptive / 1e3, bad / 1e3, adaptive / bad),
                    adaptive < 0.9 * bad));
        }
        return verdicts;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
