package io.github.boundedupload.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scenario M's pairs in one JVM ({@link PairUploads#runMixed}): each of this library's strategies against a plain
 * {@code CompletableFuture} pool of the same concurrency on the same kind of client, their batches alternating; the
 * table of them and the target judged on them (makespan at most the pool's, the median of the rounds' ratios). Changes
 * when what the report shows of scenario M's pairs changes.
 */
final class MixedReport {

    private final List<Report.Pair> pairs = new ArrayList<>();

    MixedReport(List<Map<String, String>> results) {
        for (StrategyKind kind : StrategyKind.values()) {
            List<Map<String, String>> mine = results.stream()
                    .filter(r -> Report.PAIR_M.equals(r.get("scenario")) && kind.name().equals(r.get("strategy")))
                    .toList();
            if (!mine.isEmpty()) {
                String failure = mine.stream().filter(r -> r.containsKey("failed")).map(r -> r.get("failed"))
                        .findFirst().orElse(null);
                pairs.add(new Report.Pair(kind, kind, mine.stream().filter(r -> r.containsKey("makespanMs")).toList(),
                        failure));
            }
        }
    }

    /** The pairs' table; nothing when the run measured none. */
    String table() {
        if (pairs.isEmpty()) {
            return "";
        }
        StringBuilder table = new StringBuilder("\nIn one JVM, each library strategy and a plain `CompletableFuture` "
                + "pool of the same 32 in flight on the same kind of client (a fixed pool of 32 threads on the blocking "
                + "client; 32 `putObject` calls at once on the non-blocking one; one PutObject per file), warmed up "
                + "together, then their batches alternating (`PairUploads`); medians over the rounds (min-max), and as "
                + "ratio the median of the rounds' ratios (min-max):\n\n| strategy | anchor | rounds | makespan s "
                + "| the anchor's | ratio | client CPU per upload, us | the anchor's | ratio |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (Report.Pair pair : pairs) {
            table.append("| ").append(pair.kind().label).append(" | ").append(anchor(pair)).append(" | ");
            if (pair.rounds().isEmpty()) {
                table.append("failed: ").append(pair.failure()).append(" | | | | | | |\n");
                continue;
            }
            table.append(f("%d | %.2f (%s) | %.2f (%s) | %.2f (%s) | %.0f (%s) | %.0f (%s) | %.2f |%n",
                    pair.rounds().size(), pair.median("makespanMs") / 1e3, pair.range("makespanMs", 1e-3, "%.2f"),
                    pair.median("anchorMakespanMs") / 1e3, pair.range("anchorMakespanMs", 1e-3, "%.2f"),
                    pair.ratio("makespanMs", "anchorMakespanMs"), ratioRange(pair, "makespanMs", "anchorMakespanMs"),
                    pair.median("cpuUs"), pair.range("cpuUs", 1, "%.0f"), pair.median("anchorCpuUs"),
                    pair.range("anchorCpuUs", 1, "%.0f"), pair.ratio("cpuUs", "anchorCpuUs")));
        }
        return table.toString();
    }

    /** The target of scenario M: each library strategy's makespan at most its pool's, in their pair. */
    List<Targets.Verdict> verdicts(String label) {
        List<Targets.Verdict> verdicts = new ArrayList<>();
        for (Report.Pair pair : pairs) {
            String target = label + ": makespan at most the " + anchor(pair) + "'s, in one JVM";
            if (pair.rounds().isEmpty()) {
                verdicts.add(Targets.Verdict.of(target, pair.kind().label, "failed: " + pair.failure(), false));
                continue;
            }
            double ratio = pair.ratio("makespanMs", "anchorMakespanMs");
            verdicts.add(Targets.Verdict.of(target, pair.kind().label, f("%.2fx, the median of %d rounds' ratios "
                    + "(%s); medians %.2f vs %.2f s", ratio, pair.rounds().size(),
                    ratioRange(pair, "makespanMs", "anchorMakespanMs"), pair.median("makespanMs") / 1e3,
                    pair.median("anchorMakespanMs") / 1e3), ratio <= 1.0)
                    .ifMissed(f("%.1f%%", (ratio - 1) * 100), "see the M section of docs/benchmarks.md"));
        }
        return verdicts;
    }

    private static String anchor(Report.Pair pair) {
        return pair.rounds().isEmpty() ? PairUploads.mixedAnchor(pair.kind())
                : pair.rounds().get(0).getOrDefault("anchor", PairUploads.mixedAnchor(pair.kind()));
    }

    private static String ratioRange(Report.Pair pair, String key, String anchorKey) {
        double[] ratios = pair.rounds().stream().mapToDouble(round -> Double.parseDouble(round.get(key))
                / Double.parseDouble(round.get(anchorKey))).sorted().toArray();
        return ratios.length == 0 ? "-" : f("%.2f-%.2f", ratios[0], ratios[ratios.length - 1]);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
