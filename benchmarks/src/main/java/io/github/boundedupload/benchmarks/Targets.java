package io.github.boundedupload.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The targets of one run, for each of this library's strategies: what was measured, whether it is met, and where it
 * is missed, by how much and why (the spread of the runs, the server, the client's CPU). Changes when a target of this
 * library's strategies, or how it is judged, changes.
 */
final class Targets {

    /** The anchors a user could pick instead of this library, measured interleaved with it. */
    private static final List<StrategyKind> ANCHORS = List.of(StrategyKind.COMPLETABLE_FUTURE,
            StrategyKind.TRANSFER_MANAGER, StrategyKind.TRANSFER_MANAGER_CRT);

    private final Report report;

    Targets(Report report) {
        this.report = report;
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
    List<Verdict> verdicts(Scenario scenario) {
        List<Verdict> verdicts = new ArrayList<>();
        if (scenario == Scenario.F) {
            return report.adaptive.verdicts(report.label(Scenario.F));
        }
        if (scenario == Scenario.M) {
            return report.mixed.verdicts(report.label(Scenario.M));
        }
        Report.Row tm = report.row(scenario, StrategyKind.TRANSFER_MANAGER);
        for (StrategyKind kind : StrategyKind.values()) {
            Report.Row row = report.row(scenario, kind);
            if (!kind.library || !scenario.measures(kind)) {
                continue;
            }
            if (!row.measured()) {
                verdicts.add(Verdict.of(report.label(scenario), kind.label, "failed: " + row.failure(), false));
                continue;
            }
            switch (scenario) {
                case A, B, D -> latencyVerdicts(row, tm, verdicts);
                case C -> bandwidthVerdicts(row, verdicts);
                case E -> isolationVerdicts(row, verdicts);
                case F, M -> throw new AssertionError(scenario + " has verdicts of its own");
            }
        }
        return verdicts;
    }

    private void latencyVerdicts(Report.Row row, Report.Row tm, List<Verdict> verdicts) {
        Scenario scenario = row.scenario();
        StrategyKind kind = row.kind();
        double median = row.median("makespanMs") / 1e3;
        double ideal = report.ownIdeal(row);
        double ratio = median / ideal;
        double tmMedian = tm.median("makespanMs") / 1e3;
        String why;
        double plain = report.plainSeconds(scenario);
        if (plain / ideal > 1.15) {
            why = f("the server, not the uploader: the plainest client at the same concurrency (plain threads) takes "
                    + "%.2f s = %.2fx the ideal; this strategy is at %.2fx of that", plain, plain / ideal,
                    median / plain);
        } else if (tm.measured() && tmMedian / report.ownIdeal(tm) > 1.15) {
            why = f("the machine, not the strategy: the Transfer Manager is at %.2fx its ideal too",
                    tmMedian / report.ownIdeal(tm));
        } else {
            why = f("the library's own time: %.0f ms over the ideal, %.0f ms over the Transfer Manager",
                    (median - ideal) * 1e3, (median - tmMedian) * 1e3);
        }
        verdicts.add(Verdict.of(report.label(scenario) + ": within 1.15x of the ideal", kind.label,
                f("%.2f s = %.2fx the ideal at its %d in flight (%.2f s)", median, ratio,
                        scenario.inFlight(kind, report.context.scale()), ideal), ratio <= 1.15)
                .ifMissed(f("%.2fx (%.0f ms)", ratio - 1.15, (median - 1.15 * ideal) * 1e3), why));
        if (scenario != Scenario.D) {
            verdicts.add(fastestAnchorVerdict(row));
            if (scenario == Scenario.B) {
                verdicts.add(cpuVerdict(row));
            }
            return;
        }
        boolean equal = scenario.inFlight(kind, report.context.scale())
                == scenario.inFlight(StrategyKind.TRANSFER_MANAGER, report.context.scale());
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
     * A and B: no slower than the fastest anchor a user could pick instead that ran interleaved with it: source 000's
     * pool, and the Transfer Manager on either client. (Plain threads, measured by the calibration and not
     * interleaved, are in the table.)
     */
    private Verdict fastestAnchorVerdict(Report.Row row) {
        Scenario scenario = row.scenario();
        double median = row.median("makespanMs") / 1e3;
        Report.Row best = null;
        for (StrategyKind kind : ANCHORS) {
            Report.Row other = report.row(scenario, kind);
            if (other.measured() && (best == null || other.median("makespanMs") < best.median("makespanMs"))) {
                best = other;
            }
        }
        String target = report.label(scenario) + ": no slower than the best of source 000's pool and both Transfer"
                + " Managers";
        if (best == null) {
            return Verdict.of(target, row.kind().label, "no anchor measured", null);
        }
        double theirs = best.median("makespanMs") / 1e3;
        return Verdict.of(target, row.kind().label, f("%.2f s vs %.2f s (%s), %.2fx", median, theirs,
                        best.kind().shortLabel, median / theirs), median <= theirs)
                .ifMissed(f("%.0f ms (%.1f%%)", (median - theirs) * 1e3, (median / theirs - 1) * 100),
                        spread(row, best, "makespanMs", 1e3, "s") + cpuCause(row, best) + pairedMakespan(row));
    }

    /**
     * B: the client's CPU per upload, the JIT's excluded, no more than the anchor's on the same HTTP client
     * ({@link #cpuAnchor}), and within 10% of the CRT Transfer Manager's on the CRT client. Judged on the pair in one
     * JVM ({@link PairUploads#run}) where the run measured one: one strategy's CPU per upload moves by 10-15 % from one
     * JVM to the next and from one minute of the shared machine to the next, more than the differences the target is
     * about, and a pair's alternating batches share both; the verdict takes the median of the rounds' ratios, and the
     * pool paired with a pool of its own ({@link Report#samePair}) is stated beside it as the instrument's error, with
     * the medians of the JVMs of their own.
     */
    private Verdict cpuVerdict(Report.Row row) {
        StrategyKind anchor = cpuAnchor(row.kind());
        double allowed = anchor == StrategyKind.TRANSFER_MANAGER_CRT ? 1.1 : 1.0;
        Report.Row other = report.row(row.scenario(), anchor);
        int uploads = report.n(row.scenario());
        String target = f("%s: client CPU per upload at most %sthe %s's, on the same client",
                report.label(row.scenario()), allowed == 1.0 ? "" : f("%.1fx ", allowed), anchor.shortLabel);
        double mine = row.cpuPerUploadMicros(uploads);
        double theirs = other.cpuPerUploadMicros(uploads);
        boolean measuredApart = other.measured() && !Double.isNaN(mine) && !Double.isNaN(theirs);
        String apart = !measuredApart ? "not measured"
                : f("%.0f vs %.0f us (%.2fx); JIT %.0f vs %.0f ms a run; allocated %.0f vs %.0f KiB per upload", mine,
                        theirs, mine / theirs, row.median("jitCpuMs"), other.median("jitCpuMs"),
                        row.allocatedPerUploadKiB(uploads), other.allocatedPerUploadKiB(uploads));
        Report.Pair pair = report.pair(row).orElse(null);
        if (pair != null) {
            double ratio = pair.ratio("cpuUs", "anchorCpuUs");
            String errorBar = report.samePair().map(same -> f("; the pool against a pool of its own the same way: "
                    + "%.2fx", same.ratio("cpuUs", "anchorCpuUs"))).orElse("");
            return Verdict.of(target, row.kind().label, f("in one JVM, alternating (%d rounds): %.2fx, the median of "
                            + "the rounds' ratios (medians %.0f vs %.0f us)%s; in JVMs of their own: %s",
                            pair.rounds().size(), ratio, pair.median("cpuUs"), pair.median("anchorCpuUs"), errorBar,
                            apart), ratio <= allowed)
                    .ifMissed(f("%.1f%%", (ratio / allowed - 1) * 100),
                            f("per round in one JVM %s vs %s us", pair.range("cpuUs", 1, "%.0f"),
                                    pair.range("anchorCpuUs", 1, "%.0f")));
        }
        if (!measuredApart) {
            return Verdict.of(target, row.kind().label, apart, null);
        }
        return Verdict.of(target, row.kind().label, apart, mine <= allowed * theirs)
                .ifMissed(f("%.0f us (%.1f%%)", mine - allowed * theirs, (mine / (allowed * theirs) - 1) * 100),
                        f("per run %s vs %s us", range(row, uploads), range(other, uploads)));
    }

    /**
     * The anchor on the same HTTP client that a library strategy's CPU per upload is held to: source 000's pool on
     * the blocking client, the Transfer Manager on the Java-based non-blocking one, the CRT Transfer Manager on the CRT
     * client.
     */
    static StrategyKind cpuAnchor(StrategyKind kind) {
        return switch (kind) {
            case LIBRARY_NON_BLOCKING -> StrategyKind.TRANSFER_MANAGER;
            case LIBRARY_NON_BLOCKING_CRT -> StrategyKind.TRANSFER_MANAGER_CRT;
            default -> StrategyKind.COMPLETABLE_FUTURE;
        };
    }

    /** The lowest and highest CPU per upload (the JIT's excluded) over a row's runs. */
    private static String range(Report.Row row, int uploads) {
        double[] values = row.runs().stream().filter(run -> run.containsKey("jitCpuMs"))
                .mapToDouble(run -> (Double.parseDouble(run.get("cpuMs")) - Double.parseDouble(run.get("jitCpuMs")))
                        * 1e3 / uploads).sorted().toArray();
        return values.length == 0 ? "-" : f("%.0f-%.0f", values[0], values[values.length - 1]);
    }

    /** The makespans of a strategy's pair with its anchor in one JVM, where the run measured one. */
    private String pairedMakespan(Report.Row row) {
        return report.pair(row).map(pair -> f("; in one JVM with the %s, alternating (%d rounds): %.2f vs %.2f s "
                + "(%.2fx)", pair.anchor().shortLabel, pair.rounds().size(), pair.median("makespanMs") / 1e3,
                pair.median("anchorMakespanMs") / 1e3, pair.ratio("makespanMs", "anchorMakespanMs"))).orElse("");
    }

    /**
     * Where this strategy's client used more CPU than the anchor: on a machine whose cores the client, the server and
     * the proxy share, CPU the client spends is time the server does not get.
     */
    private String cpuCause(Report.Row row, Report.Row anchor) {
        int uploads = report.n(row.scenario());
        double mine = row.median("cpuMs");
        double theirs = anchor.median("cpuMs");
        if (!(mine > theirs)) {
            return "";
        }
        return f("; client CPU %.2f s a run against %.2f s for the %s (%.0f us more per upload; the JIT's %.0f vs"
                + " %.0f ms), on cores the server and the proxy share", mine / 1e3, theirs / 1e3,
                anchor.kind().shortLabel, (mine - theirs) * 1e3 / uploads, row.median("jitCpuMs"),
                anchor.median("jitCpuMs"));
    }

    private void bandwidthVerdicts(Report.Row row, List<Verdict> verdicts) {
        StrategyKind kind = row.kind();
        double mine = report.cTotalMB() / (row.median("makespanMs") / 1e3);
        long threshold = row.scenario().setup(kind, report.context.scale(), "-").options().multipartThreshold();
        for (StrategyKind anchor : List.of(StrategyKind.SEQUENTIAL, StrategyKind.COMPLETABLE_FUTURE,
                StrategyKind.TRANSFER_MANAGER, StrategyKind.TRANSFER_MANAGER_CRT)) {
            Report.Row other = report.row(Scenario.C, anchor);
            String target = report.label(Scenario.C) + ": throughput at least the " + anchor.shortLabel + "'s";
            if (!other.measured()) {
                verdicts.add(Verdict.of(target, kind.label, anchor.shortLabel + " failed: " + other.failure(), null));
                continue;
            }
            double theirs = report.cTotalMB() / (other.median("makespanMs") / 1e3);
            boolean onlyMinePartsIt = !anchor.transferManager() && report.context.scale().cFileBytes() > threshold;
            verdicts.add(Verdict.of(target, kind.label, f("%.1f vs %.1f MB/s (%.2fx)", mine, theirs, mine / theirs),
                    mine >= theirs)
                    .ifMissed(f("%.1f MB/s (%.0f%%)", theirs - mine, (1 - mine / theirs) * 100), onlyMinePartsIt
                            ? f("multipart on %s: the library (multipartThreshold %d MiB) sends each file in "
                                    + "parts, the loop in one PutObject; one file in parts, one after another, goes at "
                                    + "%.1f MB/s against %.1f MB/s in one PutObject with the plain client "
                                    + "(calibration)", report.server(), threshold >> 20, report.multipartMBps(), report.streamMBps())
                            : spread(row, other, "makespanMs", 1e3, "s")));
        }
        verdicts.add(Verdict.of(report.label(Scenario.C) + ": heap after GC under 64 MiB", kind.label,
                f("%.0f MiB after GC, %.0f MiB used (garbage included)", row.max("heapAfterGcMiB"),
                        row.max("heapUsedMiB")), row.max("heapAfterGcMiB") < 64)
                .ifMissed(f("%.0f MiB", row.max("heapAfterGcMiB") - 64), "content held in memory"));
    }

    private void isolationVerdicts(Report.Row row, List<Verdict> verdicts) {
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
    private static String probeWhy(Report.Row row) {
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
    private static String spread(Report.Row mine, Report.Row theirs, String key, double unit, String unitName) {
        boolean overlap = mine.min(key) <= theirs.max(key) && theirs.min(key) <= mine.max(key);
        String ranges = f("%.2f-%.2f %s vs %.2f-%.2f %s", mine.min(key) / unit, mine.max(key) / unit, unitName,
                theirs.min(key) / unit, theirs.max(key) / unit, unitName);
        return overlap && mine.runs().size() > 1 ? "within the spread of the runs (" + ranges + ")"
                : mine.runs().size() > 1 ? "slower in every run (" + ranges + ")"
                : "one run only: a quick run cannot tell noise from a difference";
    }

    static String row(Verdict verdict) {
        return "| " + verdict.target() + " | " + verdict.strategy() + " | " + verdict.measured() + " | "
                + (verdict.met() == null ? "n/a" : verdict.met() ? "yes" : "**no**") + " | " + verdict.missedBy()
                + " | " + verdict.why() + " |\n";
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
