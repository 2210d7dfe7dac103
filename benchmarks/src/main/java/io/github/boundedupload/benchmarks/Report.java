package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.S3Server;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3UploadOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Turns the result lines into {@code benchmarks.md}: per scenario the medians and spreads, the ideal and the ratio to
 * it, heap and threads; the targets, met or missed by how much; and the charts.
 *
 * <p>(Longer than the project's usual on purpose: every sentence of the report that carries a figure is here, next
 * to the figure it states, so that the text and the numbers change together. Scenario F's part is
 * {@link AdaptiveReport}.)
 */
final class Report {

    static final String FILE_NAME = "benchmarks.md";
    static final String CHARTS = "benchmarks";
    private static final double MIB = 1024 * 1024;

    /** Where and when the run happened. */
    record Context(Scale scale, S3Server server, Instant started, String loadBefore, String java, int cores,
            String jvmOptions, Instant finished, String loadAfter) {

        Context(Scale scale, S3Server server, Instant started, String loadBefore, String java, int cores,
                String jvmOptions) {
            this(scale, server, started, loadBefore, java, cores, jvmOptions, started, loadBefore);
        }

        Context finished(String load) {
            return finished(Instant.now(), load);
        }

        Context finished(Instant at, String load) {
            return new Context(scale, server, started, loadBefore, java, cores, jvmOptions, at, load);
        }
    }

    /** The runs of one strategy in one scenario. */
    record Row(Scenario scenario, StrategyKind kind, List<Map<String, String>> runs, String failure) {

        boolean measured() {
            return !runs.isEmpty();
        }

        double[] values(String key) {
            return runs.stream().filter(run -> run.containsKey(key))
                    .mapToDouble(run -> Double.parseDouble(run.get(key))).toArray();
        }

        double median(String key) {
            return Stats.median(values(key));
        }

        double min(String key) {
            return Arrays.stream(values(key)).min().orElse(Double.NaN);
        }

        double max(String key) {
            return Arrays.stream(values(key)).max().orElse(Double.NaN);
        }

        /** The median, over runs, of a ratio taken within each run. */
        double medianRatio(String numerator, String denominator) {
            return Stats.median(runs.stream().mapToDouble(run -> Double.parseDouble(run.get(numerator))
                    / Double.parseDouble(run.get(denominator))).toArray());
        }

        long count(Predicate<Map<String, String>> which) {
            return runs.stream().filter(which).count();
        }
    }

    private final Context context;
    private final Map<String, String> calibration;
    private final List<Scenario> scenarios;
    private final List<Row> rows = new ArrayList<>();
    private final AdaptiveReport adaptive;

    Report(Context context, Map<String, String> calibration, List<Scenario> scenarios,
            List<Map<String, String>> results) {
        this.context = context;
        this.calibration = calibration;
        this.scenarios = scenarios;
        this.adaptive = new AdaptiveReport(context.scale(), results);
        for (Scenario scenario : scenarios) {
            for (StrategyKind kind : StrategyKind.values()) {
                List<Map<String, String>> mine = results.stream()
                        .filter(r -> r.get("scenario").equals(scenario.name()) && r.get("strategy").equals(kind.name()))
                        .toList();
                String failure = mine.stream().filter(r -> r.containsKey("failed")).map(r -> r.get("failed"))
                        .findFirst().orElse(null);
                rows.add(new Row(scenario, kind, mine.stream().filter(r -> r.containsKey("makespanMs")).toList(),
                        failure));
            }
        }
    }

    // ---- ideals ---------------------------------------------------------------------------------------------

    private int n(Scenario scenario) {
        return scenario.uploads(context.scale());
    }

    private double latencySeconds(Scenario scenario) {
        return Calibration.latency(scenario, context.scale(), calibration).toNanos() / 1e9;
    }

    /**
     * The plainest client at the scenario's concurrency through the proxy (A and B), in seconds, measured by the
     * calibration; NaN elsewhere.
     */
    private double plainSeconds(Scenario scenario) {
        String key = switch (scenario) {
            case A -> "aPlainMs";
            case B -> "bPlainMs";
            default -> null;
        };
        return key == null || !calibration.containsKey(key) ? Double.NaN
                : Double.parseDouble(calibration.get(key)) / 1e3;
    }

    /** One PutObject of a large file through the proxy, in MB/s: what bytes cost there. */
    private double proxyMBps() {
        return Double.parseDouble(calibration.getOrDefault("proxyMBps", "NaN"));
    }

    /** The bytes of a latency-bound scenario's batch on a server (A, B), in MB. */
    private double batchMB(Scenario scenario) {
        return switch (scenario) {
            case A -> Scenario.A_FILES * (double) Scenario.A_SIZE / 1e6;
            case B -> n(scenario) * (double) Scenario.B_SIZE / 1e6;
            default -> 0;
        };
    }

    private double streamMBps() {
        return Double.parseDouble(calibration.get("streamMBps"));
    }

    private double multipartMBps() {
        return Double.parseDouble(calibration.getOrDefault("multipartMBps", "NaN"));
    }

    private double cTotalMB() {
        return Scenario.C_FILES * context.scale().cFileBytes() / 1e6;
    }

    /**
     * The best time with {@code inFlight} uploads at once, in seconds: {@code max(ceil(N / in flight) x latency,
     * bytes / throughput)}, the latency and the throughput measured in the same run through the same path (the proxy
     * for A and B; straight to the server, no latency added, for C).
     */
    private double ideal(Scenario scenario, int inFlight) {
        double rounds = Math.ceil(n(scenario) / (double) inFlight) * latencySeconds(scenario);
        return switch (scenario) {
            case C -> cTotalMB() / streamMBps();
            case A, B -> Double.isNaN(proxyMBps()) ? rounds : Math.max(rounds, batchMB(scenario) / proxyMBps());
            default -> rounds;
        };
    }

    /** The scenario's name, with the server it measured where it measured one ("B on versitygw"). */
    String label(Scenario scenario) {
        return scenario.onServer() ? scenario.name() + " on " + server() : scenario.name();
    }

    private double ownIdeal(Row row) {
        return ideal(row.scenario(), row.scenario().inFlight(row.kind(), context.scale()));
    }

    /** The scenario's ideal: at the most uploads in flight any strategy of it is given. */
    private double scenarioIdeal(Scenario scenario) {
        int most = Arrays.stream(StrategyKind.values()).mapToInt(k -> scenario.inFlight(k, context.scale())).max()
                .orElse(1);
        return ideal(scenario, scenario == Scenario.E ? Scenario.E_PER_BATCH : most);
    }

    // ---- tables ---------------------------------------------------------------------------------------------

    private List<Row> rows(Scenario scenario) {
        return rows.stream().filter(r -> r.scenario() == scenario).toList();
    }

    private Row row(Scenario scenario, StrategyKind kind) {
        return rows.stream().filter(r -> r.scenario() == scenario && r.kind() == kind).findFirst().orElseThrow();
    }

    /** The result tables, as printed at the end of a run. */
    String tables() {
        StringBuilder text = new StringBuilder();
        for (Scenario scenario : scenarios) {
            text.append(tables(scenario));
        }
        return text.toString();
    }

    /** One scenario's section of the report: its heading, ideal and table. */
    private String tables(Scenario scenario) {
        return "### " + label(scenario) + ": " + scenario.title + "\n\n" + idealText(scenario) + "\n\n"
                + switch (scenario) {
                    case E -> isolationTable();
                    case F -> adaptive.table();
                    default -> makespanTable(scenario);
                } + '\n';
    }

    private String idealText(Scenario scenario) {
        return switch (scenario) {
            case A, B -> {
                int inFlight = scenario == Scenario.A ? Scenario.A_FILES : Scenario.B_CONCURRENCY;
                double rounds = Math.ceil(n(scenario) / (double) inFlight) * latencySeconds(scenario);
                yield f("Ideal: max(ceil(N / in flight) x %.0f ms (one PutObject through the proxy, measured), %.0f MB "
                        + "/ %.0f MB/s (one large PutObject through the proxy, measured)) = max(%.2f s, %.2f s) = "
                        + "**%.2f s** at %d in flight. The plainest client at %d in flight (%d plain threads, one "
                        + "PutObject each) takes %.2f s (%.2fx): what %s, on the same cores, allows %d concurrent "
                        + "PUTs.", latencySeconds(scenario) * 1e3, batchMB(scenario), proxyMBps(), rounds,
                        batchMB(scenario) / proxyMBps(), scenarioIdeal(scenario), inFlight, inFlight, inFlight,
                        plainSeconds(scenario), plainSeconds(scenario) / scenarioIdeal(scenario), server(), inFlight);
            }
            case F -> adaptive.ideal();
            case D, E -> f("Ideal: ceil(N / in flight) x %.0f ms (the fake's latency) = **%.2f s** at %s in flight.",
                    latencySeconds(scenario) * 1e3, scenarioIdeal(scenario),
                    scenario == Scenario.E ? Scenario.E_PER_BATCH : "the most");
            case C -> f("Ideal: %.0f MB / %.1f MB/s (one PutObject of one file, straight to %s, measured) = "
                    + "**%.2f s**. Several streams can beat it. The same file in parts of 8 MiB, one after another, "
                    + "went at %.1f MB/s: %s puts the parts together once more to complete the object, on the same "
                    + "cores.", cTotalMB(), streamMBps(), server(), scenarioIdeal(scenario), multipartMBps(),
                    server());
        };
    }

    private String makespanTable(Scenario scenario) {
        StringBuilder table = new StringBuilder();
        boolean bandwidth = scenario == Scenario.C;
        boolean floor = !Double.isNaN(plainSeconds(scenario));
        table.append("| strategy | in flight | makespan s, median (min-max) | x ideal | ")
                .append(bandwidth ? "MB/s | " : "own ideal s | x own ideal | ")
                .append(floor ? "x plain threads | " : "")
                .append("client CPU s, median | peak heap used / after GC, MiB | peak threads |\n");
        table.append("|---|---|---|---|---|").append(bandwidth ? "" : "---|").append(floor ? "---|" : "")
                .append("---|---|---|\n");
        for (Row row : rows(scenario)) {
            int inFlight = scenario.inFlight(row.kind(), context.scale());
            table.append("| ").append(row.kind().label).append(" | ").append(inFlight).append(" | ");
            if (!row.measured()) {
                table.append(row.failure() != null ? "failed: " + row.failure()
                        : f("not run: %.0f s by construction", ownIdeal(row))).append(" | | ")
                        .append(bandwidth ? "| " : "| | ").append(floor ? "| " : "").append("| | |\n");
                continue;
            }
            double median = row.median("makespanMs") / 1e3;
            table.append(f("%.2f (%.2f-%.2f)%s | %.2f | ", median, row.min("makespanMs") / 1e3,
                    row.max("makespanMs") / 1e3, row.failure() != null ? " failed: " + row.failure() : "",
                    median / scenarioIdeal(scenario)));
            table.append(bandwidth ? f("%.1f | ", cTotalMB() / median)
                    : f("%.2f | %.2f | ", ownIdeal(row), median / ownIdeal(row)));
            if (floor) {
                table.append(f("%.2f | ", median / plainSeconds(scenario)));
            }
            table.append(f("%s | %.0f / %.0f | %.0f |%n", row.values("cpuMs").length == 0 ? "" : f("%.2f",
                    row.median("cpuMs") / 1e3), row.max("heapUsedMiB"), row.max("heapAfterGcMiB"),
                    row.max("threads")));
        }
        return table.toString();
    }

    private String isolationTable() {
        StringBuilder table = new StringBuilder();
        table.append("| strategy | in flight | big batch s, median (min-max) | x own ideal | unrelated task p50 / p99 ms "
                + "alone | with the batch | p99 ratio | 1-file batch ms (single upload ms) | ratio | peak heap used "
                + "/ after GC, MiB | peak threads |\n");
        table.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows(Scenario.E)) {
            table.append("| ").append(row.kind().label).append(" | ")
                    .append(Scenario.E.inFlight(row.kind(), context.scale())).append(" | ");
            if (!Scenario.E.measures(row.kind())) {
                table.append("not run: the CRT client's native HTTP stack cannot reach the in-process fakes"
                        + " | | | | | | | | | |\n");
                continue;
            }
            if (!row.measured()) {
                table.append("failed: ").append(row.failure()).append(" | | | | | | | | | |\n");
                continue;
            }
            long stopped = row.count(r -> Boolean.parseBoolean(r.get("stopped")));
            long oneStopped = row.count(r -> Boolean.parseBoolean(r.get("oneFileStopped")));
            long unfinished = (long) Arrays.stream(row.values("probesUnfinished")).sum();
            table.append(f("%s%.2f (%.2f-%.2f) | %s | ", stopped > 0 ? "> " : "", row.median("makespanMs") / 1e3,
                    row.min("makespanMs") / 1e3, row.max("makespanMs") / 1e3, stopped > 0
                            ? f("stopped at %d s in %d of %d runs; %.0f s by construction",
                                    context.scale().eWindow().toSeconds(), stopped, row.runs().size(), ownIdeal(row))
                            : f("%.2f", row.median("makespanMs") / 1e3 / ownIdeal(row))));
            table.append(f("%.1f / %.1f | %.1f / %.1f%s | %.2f | ", row.median("baseP50Ms"), row.median("baseP99Ms"),
                    row.median("probeP50Ms"), row.median("probeP99Ms"),
                    unfinished > 0 ? f(" (%d still waiting at the end)", unfinished) : "",
                    row.medianRatio("probeP99Ms", "baseP99Ms")));
            table.append(f("%s%.0f (%.0f) | %.1f | ", oneStopped > 0 ? "> " : "", row.median("oneFileMs"),
                    row.median("singleMs"), row.medianRatio("oneFileMs", "singleMs")));
            table.append(f("%.0f / %.0f | %.0f |%n", row.max("heapUsedMiB"), row.max("heapAfterGcMiB"),
                    row.max("threads")));
        }
        return table.toString();
    }

    // ---- targets --------------------------------------------------------------------------------------------

    /**
     * One target, for one of this library's strategies: what was measured, whether it is met, and where it is missed,
     * by how much and why.
     */
    record Verdict(String target, String strategy, String measured, Boolean met, String missedBy, String why) {

        static Verdict of(String target, String strategy, String measured, Boolean met) {
            return new Verdict(target, strategy, measured, met, "", "");
        }

        /** With how much it was missed by, and why, when it was missed. */
        Verdict ifMissed(String by, String reason) {
            return Boolean.FALSE.equals(met) ? new Verdict(target, strategy, measured, met, by, reason) : this;
        }
    }

    /** The targets of one scenario, for each of this library's strategies. */
    private List<Verdict> verdicts(Scenario scenario) {
        List<Verdict> verdicts = new ArrayList<>();
        if (scenario == Scenario.F) {
            return adaptive.verdicts(label(Scenario.F));
        }
        Row tm = row(scenario, StrategyKind.TRANSFER_MANAGER);
        for (StrategyKind kind : StrategyKind.values()) {
            Row row = row(scenario, kind);
            if (!kind.library || !scenario.measures(kind)) {
                continue;
            }
            if (!row.measured()) {
                verdicts.add(Verdict.of(label(scenario), kind.label, "failed: " + row.failure(), false));
                continue;
            }
            switch (scenario) {
                case A, B, D -> latencyVerdicts(row, tm, verdicts);
                case C -> bandwidthVerdicts(row, verdicts);
                case E -> isolationVerdicts(row, verdicts);
                case F -> throw new AssertionError("F has verdicts of its own");
            }
        }
        return verdicts;
    }

    private void latencyVerdicts(Row row, Row tm, List<Verdict> verdicts) {
        Scenario scenario = row.scenario();
        StrategyKind kind = row.kind();
        double median = row.median("makespanMs") / 1e3;
        double ideal = ownIdeal(row);
        double ratio = median / ideal;
        double tmMedian = tm.median("makespanMs") / 1e3;
        String why;
        double plain = plainSeconds(scenario);
        if (plain / ideal > 1.15) {
            why = f("the server, not the uploader: the plainest client at the same concurrency (plain threads) takes "
                    + "%.2f s = %.2fx the ideal; this strategy is at %.2fx of that", plain, plain / ideal,
                    median / plain);
        } else if (tm.measured() && tmMedian / ownIdeal(tm) > 1.15) {
            why = f("the machine, not the strategy: the Transfer Manager is at %.2fx its ideal too",
                    tmMedian / ownIdeal(tm));
        } else {
            why = f("the library's own time: %.0f ms over the ideal, %.0f ms over the Transfer Manager",
                    (median - ideal) * 1e3, (median - tmMedian) * 1e3);
        }
        verdicts.add(Verdict.of(label(scenario) + ": within 1.15x of the ideal", kind.label,
                f("%.2f s = %.2fx the ideal at its %d in flight (%.2f s)", median, ratio,
                        scenario.inFlight(kind, context.scale()), ideal), ratio <= 1.15)
                .ifMissed(f("%.2fx (%.0f ms)", ratio - 1.15, (median - 1.15 * ideal) * 1e3), why));
        if (scenario != Scenario.D) {
            verdicts.add(fastestAnchorVerdict(row));
            return;
        }
        boolean equal = scenario.inFlight(kind, context.scale())
                == scenario.inFlight(StrategyKind.TRANSFER_MANAGER, context.scale());
        verdicts.add(Verdict.of(scenario.name() + ": at least as fast as the Transfer Manager", kind.label,
                !tm.measured() ? "Transfer Manager failed" : f("%.2f s vs %.2f s (%.2fx)%s", median, tmMedian,
                        median / tmMedian, equal ? "" : ", not at equal concurrency"),
                !tm.measured() || !equal ? null : median <= tmMedian)
                .ifMissed(f("%.0f ms (%.1f%%)", (median - tmMedian) * 1e3, (median / tmMedian - 1) * 100),
                        spread(row, tm, "makespanMs", 1e3, "s") + "; in process an upload costs only CPU, and this "
                                + "library does more per upload than the Transfer Manager on the fake client: it "
                                + "checks the batch, keeps a checksum to settle lost answers, makes the object's "
                                + "location URL and arms a timeout"));
    }

    /**
     * A and B: no slower than the fastest anchor a user could pick instead: plain threads at the scenario's
     * concurrency (measured by the calibration), source 000's pool, and the Transfer Manager on either client.
     */
    private Verdict fastestAnchorVerdict(Row row) {
        Scenario scenario = row.scenario();
        double median = row.median("makespanMs") / 1e3;
        String bestName = "plain threads";
        double best = plainSeconds(scenario);
        Row bestRow = null;
        for (StrategyKind kind : List.of(StrategyKind.COMPLETABLE_FUTURE, StrategyKind.TRANSFER_MANAGER,
                StrategyKind.TRANSFER_MANAGER_CRT)) {
            Row other = row(scenario, kind);
            if (other.measured() && !(other.median("makespanMs") / 1e3 >= best)) {
                best = other.median("makespanMs") / 1e3;
                bestName = kind.shortLabel;
                bestRow = other;
            }
        }
        String why = bestRow != null ? spread(row, bestRow, "makespanMs", 1e3, "s")
                : f("plain threads ran in the calibration (not interleaved with the strategies), at %d in flight "
                        + "against this strategy's %d", scenario == Scenario.A ? Scenario.A_FILES
                                : Scenario.B_CONCURRENCY, scenario.inFlight(row.kind(), context.scale()));
        why += cpuCause(row);
        return Verdict.of(label(scenario) + ": no slower than the best of plain threads, source 000's pool and both "
                        + "Transfer Managers", row.kind().label,
                f("%.2f s vs %.2f s (%s), %.2fx", median, best, bestName, median / best), median <= best)
                .ifMissed(f("%.0f ms (%.1f%%)", (median - best) * 1e3, (median / best - 1) * 100), why);
    }

    /**
     * Where this strategy's client used more CPU than the leanest interleaved anchor: on a machine whose cores the
     * client, the server and the proxy share, CPU the client spends is time the server does not get.
     */
    private String cpuCause(Row row) {
        Row leanest = null;
        for (StrategyKind kind : List.of(StrategyKind.COMPLETABLE_FUTURE, StrategyKind.TRANSFER_MANAGER,
                StrategyKind.TRANSFER_MANAGER_CRT)) {
            Row other = row(row.scenario(), kind);
            if (other.measured() && (leanest == null || other.median("cpuMs") < leanest.median("cpuMs"))) {
                leanest = other;
            }
        }
        if (leanest == null || !(row.median("cpuMs") > leanest.median("cpuMs"))) {
            return "";
        }
        int uploads = row.scenario() == Scenario.A ? Scenario.A_FILES : context.scale().bFiles();
        return f("; client CPU %.2f s a run against %.2f s for the %s (%.0f us more per upload), on cores the"
                + " server and the proxy share", row.median("cpuMs") / 1e3, leanest.median("cpuMs") / 1e3,
                leanest.kind().shortLabel, (row.median("cpuMs") - leanest.median("cpuMs")) * 1e3 / uploads);
    }

    private void bandwidthVerdicts(Row row, List<Verdict> verdicts) {
        StrategyKind kind = row.kind();
        double mine = cTotalMB() / (row.median("makespanMs") / 1e3);
        long threshold = row.scenario().setup(kind, context.scale(), "-").options().multipartThreshold();
        for (StrategyKind anchor : List.of(StrategyKind.SEQUENTIAL, StrategyKind.COMPLETABLE_FUTURE,
                StrategyKind.TRANSFER_MANAGER, StrategyKind.TRANSFER_MANAGER_CRT)) {
            Row other = row(Scenario.C, anchor);
            String target = label(Scenario.C) + ": throughput at least the " + anchor.shortLabel + "'s";
            if (!other.measured()) {
                verdicts.add(Verdict.of(target, kind.label, anchor.shortLabel + " failed: " + other.failure(), null));
                continue;
            }
            double theirs = cTotalMB() / (other.median("makespanMs") / 1e3);
            boolean onlyMinePartsIt = !anchor.transferManager() && context.scale().cFileBytes() > threshold;
            verdicts.add(Verdict.of(target, kind.label, f("%.1f vs %.1f MB/s (%.2fx)", mine, theirs, mine / theirs),
                    mine >= theirs)
                    .ifMissed(f("%.1f MB/s (%.0f%%)", theirs - mine, (1 - mine / theirs) * 100), onlyMinePartsIt
                            ? f("multipart on %s: the library (multipartThreshold %d MiB) sends each file in "
                                    + "parts, the loop in one PutObject; one file in parts, one after another, goes at "
                                    + "%.1f MB/s against %.1f MB/s in one PutObject with the plain client "
                                    + "(calibration)", server(), threshold >> 20, multipartMBps(), streamMBps())
                            : spread(row, other, "makespanMs", 1e3, "s")));
        }
        verdicts.add(Verdict.of(label(Scenario.C) + ": heap after GC under 64 MiB", kind.label,
                f("%.0f MiB after GC, %.0f MiB used (garbage included)", row.max("heapAfterGcMiB"),
                        row.max("heapUsedMiB")), row.max("heapAfterGcMiB") < 64)
                .ifMissed(f("%.0f MiB", row.max("heapAfterGcMiB") - 64), "content held in memory"));
    }

    private void isolationVerdicts(Row row, List<Verdict> verdicts) {
        StrategyKind kind = row.kind();
        double probe = row.medianRatio("probeP99Ms", "baseP99Ms");
        double excess = row.median("probeP99Ms") - 1.2 * row.median("baseP99Ms");
        verdicts.add(Verdict.of("E: unrelated task's p99 within 1.2x of alone", kind.label,
                f("%.1f ms vs %.1f ms (%.2fx)", row.median("probeP99Ms"), row.median("baseP99Ms"), probe),
                probe <= 1.2)
                .ifMissed(f("%.2fx (%.1f ms)", probe - 1.2, excess), probeWhy(row)));
        double one = row.medianRatio("oneFileMs", "singleMs");
        verdicts.add(Verdict.of("E: 1-file batch within 3x a single upload", kind.label,
                f("%.0f ms vs %.0f ms (%.1fx)", row.median("oneFileMs"), row.median("singleMs"), one), one <= 3)
                .ifMissed(f("%.1fx (%.0f ms)", one - 3, row.median("oneFileMs") - 3 * row.median("singleMs")),
                        "it waited for a permit behind the big batch"));
    }

    /** Why the unrelated task's p99 grew while the batch ran. */
    private static String probeWhy(Row row) {
        double p50 = row.median("probeP50Ms");
        double alone = row.median("baseP50Ms");
        String where = row.kind().library ? "it runs on the common pool, which this library never uses, so it waited "
                + "for one of the two cores the batch keeps busy, not for the uploader's threads"
                : "it waited for the common pool or for a core";
        if (p50 <= 1.5 * alone) {
            return f("a tail, not a queue: the median task is unchanged (p50 %.1f ms vs %.1f ms alone), and the p99 "
                    + "over %.0f tasks is set by its %.0f slowest; %s", p50, alone, row.median("probes"),
                    Math.ceil(row.median("probes") / 100), where);
        }
        return f("every task waited longer (p50 %.1f ms vs %.1f ms alone): %s", p50, alone, where);
    }

    /** Why one strategy's median is behind another's: noise when their runs overlap, else a real difference. */
    private static String spread(Row mine, Row theirs, String key, double unit, String unitName) {
        boolean overlap = mine.min(key) <= theirs.max(key) && theirs.min(key) <= mine.max(key);
        String ranges = f("%.2f-%.2f %s vs %.2f-%.2f %s", mine.min(key) / unit, mine.max(key) / unit, unitName,
                theirs.min(key) / unit, theirs.max(key) / unit, unitName);
        return overlap && mine.runs().size() > 1 ? "within the spread of the runs (" + ranges + ")"
                : mine.runs().size() > 1 ? "slower in every run (" + ranges + ")"
                : "one run only: a quick run cannot tell noise from a difference";
    }

    private static String row(Verdict verdict) {
        return "| " + verdict.target() + " | " + verdict.strategy() + " | " + verdict.measured() + " | "
                + (verdict.met() == null ? "n/a" : verdict.met() ? "yes" : "**no**") + " | " + verdict.missedBy()
                + " | " + verdict.why() + " |\n";
    }

    // ---- the file -------------------------------------------------------------------------------------------

    /**
     * Writes {@code benchmarks.md} and its charts into {@code dir} from the runs of one or more servers (the first
     * run's settings describe them all): each scenario's results, server after server, then every target.
     */
    static void write(Path dir, List<Report> reports) throws IOException {
        Path charts = dir.resolve(CHARTS);
        Files.createDirectories(charts);
        Report first = reports.get(0);
        Context context = first.context;
        Context last = reports.get(reports.size() - 1).context;
        StringBuilder results = new StringBuilder();
        StringBuilder targets = new StringBuilder();
        for (Scenario scenario : Scenario.values()) {
            for (Report report : reports) {
                if (!report.scenarios.contains(scenario)) {
                    continue;
                }
                results.append(report.tables(scenario));
                if (scenario != Scenario.F) { // a table of its own, no chart
                    results.append(report.chart(scenario, charts));
                }
                report.verdicts(scenario).forEach(verdict -> targets.append(row(verdict)));
            }
        }
        String template = new String(Report.class.getResourceAsStream("report-template.md").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        String text = template
                .replace("{{date}}", DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(
                        context.started().atOffset(ZoneOffset.UTC).withNano(0)) + " UTC")
                .replace("{{minutes}}", f("%.0f", reports.stream().mapToLong(r -> r.context.finished().toEpochMilli()
                        - r.context.started().toEpochMilli()).sum() / 60_000.0))
                .replace("{{scale}}", context.scale().name() + (context.scale() == Scale.FULL ? ""
                        : " (smaller batches, two rounds of one run: for development, not for comparing)"))
                .replace("{{runs}}", String.valueOf(context.scale().runs()))
                .replace("{{rounds}}", String.valueOf(context.scale().rounds()))
                .replace("{{loadBefore}}", context.loadBefore())
                .replace("{{loadAfter}}", last.loadAfter())
                .replace("{{java}}", context.java())
                .replace("{{cores}}", String.valueOf(context.cores()))
                .replace("{{jvmOptions}}", context.jvmOptions())
                .replace("{{serverDescription}}", String.join("; ", reports.stream()
                        .map(r -> r.context.server().description() + " (" + r.scenarios.stream()
                                .filter(Scenario::onServer).map(Scenario::name).reduce((a, b) -> a + ", " + b)
                                .orElse("") + ")").toList()))
                .replace("{{calibration}}", String.join("\n", reports.stream().map(Report::calibrationTable).toList()))
                .replace("{{configuration}}", first.configurationTable(Arrays.stream(Scenario.values())
                        .filter(s -> reports.stream().anyMatch(r -> r.scenarios.contains(s))).toList()))
                .replace("{{results}}", results)
                .replace("{{targets}}", "| target | strategy | measured (medians) | met | missed by | why |\n"
                        + "|---|---|---|---|---|---|\n" + targets);
        Files.writeString(dir.resolve(FILE_NAME), text);
    }

    /** The S3 server scenarios A, B and C ran against. */
    private String server() {
        return context.server().displayName();
    }

    private String calibrationTable() {
        return "On " + server() + ":\n\n| what | measured |\n|---|---|\n"
                + f("| one PutObject of 200 KiB through the proxy at 150 ms (median of 10) | %.1f ms |%n",
                        latencySeconds(Scenario.A) * 1e3)
                + f("| one PutObject of 256 KiB through the proxy at 50 ms (median of 10) | %.1f ms |%n",
                        latencySeconds(Scenario.B) * 1e3)
                + f("| one stream straight to %s (one %.0f MB PutObject, median of 3) | %.1f MB/s |%n",
                        server(), context.scale().cFileBytes() / 1e6, streamMBps())
                + f("| the same file in parts of 8 MiB, one after another (multipart, median of 3) | %.1f MB/s |%n",
                        multipartMBps())
                + f("| the same file in one PutObject through the proxy at 50 ms (median of 3) | %.1f MB/s |%n",
                        proxyMBps())
                + f("| scenario A's %d attachments through the proxy at 150 ms by %d plain threads (median of 5) "
                        + "| %.2f s |%n", Scenario.A_FILES, Scenario.A_FILES, plainSeconds(Scenario.A))
                + f("| scenario B's %d files through the proxy at 50 ms by %d plain threads (median) | %.2f s |%n",
                        n(Scenario.B), Scenario.B_CONCURRENCY, plainSeconds(Scenario.B));
    }

    private String configurationTable(List<Scenario> scenarios) {
        StringBuilder table = new StringBuilder("| scenario | strategies | `UploaderConfig` | `S3UploadOptions` "
                + "| HTTP pool |\n|---|---|---|---|---|\n");
        for (Scenario scenario : scenarios) {
            if (scenario == Scenario.F) {
                table.append("| F | 4 | settings of their own, in the F section | maxConcurrency 64 | 64 |\n");
                continue;
            }
            for (StrategyKind kind : List.of(StrategyKind.LIBRARY_PLATFORM, StrategyKind.LIBRARY_NON_BLOCKING)) {
                Setup setup = scenario.setup(kind, context.scale(), "-");
                if (kind == StrategyKind.LIBRARY_NON_BLOCKING
                        && scenario.setup(StrategyKind.LIBRARY_PLATFORM, context.scale(), "-").concurrency()
                        == setup.concurrency()) {
                    continue;
                }
                UploaderConfig c = setup.uploader();
                S3UploadOptions o = setup.options();
                table.append(f("| %s | %s | maxConcurrentUploads %d, maxConcurrentUploadsPerBatch %d, "
                                + "maxAttachmentsPerBatch %d, maxQueuedUploads %d, maxBytesInFlight %d MiB; "
                                + "executorType PLATFORM (4), VIRTUAL (5), default AUTO (6, 9) | maxConcurrency %d, "
                                + "multipartThreshold %d MiB, partSize %d MiB, partsInFlight %d | %d |%n",
                        scenario.name(), scenario == Scenario.D ? (kind == StrategyKind.LIBRARY_PLATFORM
                                ? "all but 5, 6, 7" : "5, 6, 7") : "all",
                        c.maxConcurrentUploads(), c.maxConcurrentUploadsPerBatch(), c.maxAttachmentsPerBatch(),
                        c.maxQueuedUploads(), c.maxBytesInFlight() >> 20, o.maxConcurrency(),
                        o.multipartThreshold() >> 20, o.partSize() >> 20, o.partsInFlight(), setup.connections()));
            }
        }
        return table.toString();
    }

    /** Draws the scenario's chart and returns the Markdown that shows it. */
    private String chart(Scenario scenario, Path dir) throws IOException {
        List<Row> measured = rows(scenario).stream().filter(Row::measured).toList();
        List<String> labels = measured.stream().map(r -> r.kind().shortLabel).toList();
        Path file = dir.resolve("scenario-" + scenario.name().toLowerCase(Locale.ROOT)
                + (scenario.onServer() ? "-" + context.server().id() : "") + ".png");
        if (scenario == Scenario.E) {
            Charts.bars(file, "E: the unrelated task's p99 latency (ms, log scale)", "ms", labels, List.of(
                    new Charts.Series("alone", measured.stream().map(r -> Math.max(0.1, r.median("baseP99Ms")))
                            .toList()),
                    new Charts.Series("while the 14,000-upload batch runs", measured.stream()
                            .map(r -> Math.max(0.1, r.median("probeP99Ms"))).toList()),
                    new Charts.Series("1-file batch meanwhile", measured.stream()
                            .map(r -> Math.max(0.1, r.median("oneFileMs"))).toList())), true);
        } else {
            List<Charts.Series> series = new ArrayList<>(List.of(
                    new Charts.Series("makespan", measured.stream().map(r -> r.median("makespanMs") / 1e3).toList()),
                    new Charts.Series("ideal at its concurrency", measured.stream().map(this::ownIdeal).toList())));
            if (!Double.isNaN(plainSeconds(scenario))) {
                series.add(new Charts.Series("plain threads at the scenario's concurrency",
                        measured.stream().map(r -> plainSeconds(scenario)).toList()));
            }
            Charts.bars(file, label(scenario) + ": makespan, median of " + context.scale().runs() * context.scale()
                    .rounds() + " runs (s)", "s",
                    labels, series, false);
        }
        return "![" + scenario.name() + "](" + CHARTS + "/" + file.getFileName() + ")\n\n";
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
