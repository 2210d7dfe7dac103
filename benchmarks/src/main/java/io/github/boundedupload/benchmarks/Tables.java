package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One run's part of the report for each scenario: its heading, its ideal, its table of every strategy (makespan,
 * client CPU and allocation per upload, heap, threads) and its chart. Changes when what a scenario's part of the report
 * shows changes.
 */
final class Tables {

    private final Report report;

    Tables(Report report) {
        this.report = report;
    }

    /** The result tables, as printed at the end of a run. */
    String all() {
        StringBuilder text = new StringBuilder();
        for (Scenario scenario : report.scenarios) {
            text.append(tables(scenario));
        }
        return text.toString();
    }

    /** One scenario's section of the report: its heading, ideal and table. */
    String tables(Scenario scenario) {
        return "### " + report.label(scenario) + ": " + scenario.title + "\n\n" + idealText(scenario) + "\n\n"
                + switch (scenario) {
                    case E -> isolationTable();
                    case F -> report.adaptive.table();
                    case M -> makespanTable(scenario) + report.mixed.table();
                    default -> makespanTable(scenario) + (scenario == Scenario.B ? pairTable() : "");
                } + '\n';
    }

    private String idealText(Scenario scenario) {
        return switch (scenario) {
            case A, B -> {
                int inFlight = scenario == Scenario.A ? Scenario.A_FILES : Scenario.B_CONCURRENCY;
                double rounds = Math.ceil(report.n(scenario) / (double) inFlight) * report.latencySeconds(scenario);
                yield f("Ideal: max(ceil(N / in flight) x %.0f ms (one PutObject through the proxy, measured), %.0f MB "
                        + "/ %.0f MB/s (one large PutObject through the proxy, measured)) = max(%.2f s, %.2f s) = "
                        + "**%.2f s** at %d in flight. The plainest client at %d in flight (%d plain threads, one "
                        + "PutObject each) takes %.2f s (%.2fx): what %s, on the same cores, allows %d concurrent "
                        + "PUTs.", report.latencySeconds(scenario) * 1e3, report.batchMB(scenario), report.proxyMBps(), rounds,
                        report.batchMB(scenario) / report.proxyMBps(), report.scenarioIdeal(scenario), inFlight, inFlight, inFlight,
                        report.plainSeconds(scenario), report.plainSeconds(scenario) / report.scenarioIdeal(scenario), report.server(), inFlight);
            }
            case F -> report.adaptive.ideal();
            case M -> f("Ideal: max(ceil(N / in flight) x %.0f ms (the proxy's latency), %.0f MB / %.0f MB/s (one "
                    + "large PutObject through the proxy, measured)) = **%.2f s** at %d in flight. Files from %d bytes "
                    + "to %d MB, log-uniform from seed %d; the library with the S3 adapter's defaults (multipart from %d "
                    + "MiB): every file in one PutObject, as the pools send them.",
                    report.latencySeconds(scenario) * 1e3, report.batchMB(scenario), report.proxyMBps(),
                    report.scenarioIdeal(scenario), Scenario.M_CONCURRENCY, ScenarioM.SMALLEST,
                    ScenarioM.LARGEST / 1_000_000, ScenarioM.SEED, Scenario.M_MULTIPART_THRESHOLD >> 20);
            case D, E -> f("Ideal: ceil(N / in flight) x %.0f ms (the fake's latency) = **%.2f s** at %s in flight.",
                    report.latencySeconds(scenario) * 1e3, report.scenarioIdeal(scenario),
                    scenario == Scenario.E ? Scenario.E_PER_BATCH : "the most");
            case C -> f("Ideal: %.0f MB / %.1f MB/s (one PutObject of one file, straight to %s, measured) = "
                    + "**%.2f s**. Several streams can beat it. The same file in parts of 8 MiB, one after another, "
                    + "went at %.1f MB/s: %s puts the parts together once more to complete the object, on the same "
                    + "cores.", report.cTotalMB(), report.streamMBps(), report.server(), report.scenarioIdeal(scenario), report.multipartMBps(),
                    report.server());
        };
    }

    private String makespanTable(Scenario scenario) {
        StringBuilder table = new StringBuilder();
        boolean bandwidth = scenario == Scenario.C;
        boolean floor = !Double.isNaN(report.plainSeconds(scenario));
        table.append("| strategy | in flight | makespan s, median (min-max) | x ideal | ")
                .append(bandwidth ? "MB/s | " : "own ideal s | x own ideal | ")
                .append(floor ? "x plain threads | " : "")
                .append("client CPU per upload, us (JIT ms a run) | allocated per upload, KiB | peak heap used / after"
                        + " GC, MiB | peak threads |\n");
        table.append("|---|---|---|---|---|").append(bandwidth ? "" : "---|").append(floor ? "---|" : "")
                .append("---|---|---|---|\n");
        for (Report.Row row : report.rows(scenario)) {
            int inFlight = scenario.inFlight(row.kind(), report.context.scale());
            table.append("| ").append(row.kind().label).append(" | ").append(inFlight).append(" | ");
            if (!row.measured()) {
                table.append(row.failure() != null ? "failed: " + row.failure()
                        : f("not run: %.0f s by construction", report.ownIdeal(row))).append(" | | ")
                        .append(bandwidth ? "| " : "| | ").append(floor ? "| " : "").append("| | | |\n");
                continue;
            }
            double median = row.median("makespanMs") / 1e3;
            table.append(f("%.2f (%.2f-%.2f)%s | %.2f | ", median, row.min("makespanMs") / 1e3,
                    row.max("makespanMs") / 1e3, row.failure() != null ? " failed: " + row.failure() : "",
                    median / report.scenarioIdeal(scenario)));
            table.append(bandwidth ? f("%.1f | ", report.cTotalMB() / median)
                    : f("%.2f | %.2f | ", report.ownIdeal(row), median / report.ownIdeal(row)));
            if (floor) {
                table.append(f("%.2f | ", median / report.plainSeconds(scenario)));
            }
            table.append(cpuAndAllocation(row, report.n(scenario)));
            table.append(f("%.0f / %.0f | %.0f |%n", row.max("heapUsedMiB"), row.max("heapAfterGcMiB"),
                    row.max("threads")));
        }
        return table.toString();
    }

    /**
     * Scenario B's pairs: each library strategy and the anchor its CPU target names, in one JVM, batches alternating
     * ({@link PairUploads#run}); nothing when the run measured none.
     */
    private String pairTable() {
        if (report.pairs().isEmpty()) {
            return "";
        }
        StringBuilder table = new StringBuilder("\nIn one JVM, each library strategy and the anchor on its client, "
                + "warmed up together, then their batches alternating (A B, B A, ...), so that a slow minute of the "
                + "machine falls on both (`PairUploads`); medians over the rounds (min-max), and as ratio the median of "
                + "the rounds' ratios. The pool paired with a pool of its own shows how far apart this instrument puts "
                + "two strategies that do not differ:\n\n| strategy | anchor "
                + "| rounds "
                + "| client CPU per upload, us | the anchor's | ratio | makespan s | the anchor's | ratio |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (Report.Pair pair : report.pairs()) {
            table.append("| ").append(pair.kind().label).append(pair.sameStrategy() ? " (the same twice: the "
                    + "instrument's error)" : "").append(" | ").append(pair.anchor().shortLabel).append(" | ");
            if (pair.rounds().isEmpty()) {
                table.append("failed: ").append(pair.failure()).append(" | | | | | | |\n");
                continue;
            }
            table.append(f("%d | %.0f (%s) | %.0f (%s) | %.2f | %.2f (%s) | %.2f (%s) | %.2f |%n",
                    pair.rounds().size(), pair.median("cpuUs"), pair.range("cpuUs", 1, "%.0f"),
                    pair.median("anchorCpuUs"), pair.range("anchorCpuUs", 1, "%.0f"),
                    pair.ratio("cpuUs", "anchorCpuUs"), pair.median("makespanMs") / 1e3,
                    pair.range("makespanMs", 1e-3, "%.2f"), pair.median("anchorMakespanMs") / 1e3,
                    pair.range("anchorMakespanMs", 1e-3, "%.2f"), pair.ratio("makespanMs", "anchorMakespanMs")));
        }
        return table.toString();
    }

    private String isolationTable() {
        StringBuilder table = new StringBuilder();
        table.append("| strategy | in flight | big batch s, median (min-max) | x own ideal | unrelated task p50 / p99 ms "
                + "alone | with the batch | p99 ratio | 1-file batch ms (single upload ms) | ratio | client CPU per "
                + "upload, us (JIT ms a run) | allocated per upload, KiB | peak heap used / after GC, MiB | peak "
                + "threads |\n");
        table.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Report.Row row : report.rows(Scenario.E)) {
            table.append("| ").append(row.kind().label).append(" | ")
                    .append(Scenario.E.inFlight(row.kind(), report.context.scale())).append(" | ");
            if (!Scenario.E.measures(row.kind())) {
                table.append("not run: the CRT client's native HTTP stack cannot reach the in-process fakes"
                        + " | | | | | | | | | | | |\n");
                continue;
            }
            if (!row.measured()) {
                table.append("failed: ").append(row.failure()).append(" | | | | | | | | | | | |\n");
                continue;
            }
            long stopped = row.count(r -> Boolean.parseBoolean(r.get("stopped")));
            long oneStopped = row.count(r -> Boolean.parseBoolean(r.get("oneFileStopped")));
            long unfinished = (long) Arrays.stream(row.values("probesUnfinished")).sum();
            table.append(f("%s%.2f (%.2f-%.2f) | %s | ", stopped > 0 ? "> " : "", row.median("makespanMs") / 1e3,
                    row.min("makespanMs") / 1e3, row.max("makespanMs") / 1e3, stopped > 0
                            ? f("stopped at %d s in %d of %d runs; %.0f s by construction",
                                    report.context.scale().eWindow().toSeconds(), stopped, row.runs().size(), report.ownIdeal(row))
                            : f("%.2f", row.median("makespanMs") / 1e3 / report.ownIdeal(row))));
            table.append(f("%.1f / %.1f | %.1f / %.1f%s | %.2f | ", row.median("baseP50Ms"), row.median("baseP99Ms"),
                    row.median("probeP50Ms"), row.median("probeP99Ms"),
                    unfinished > 0 ? f(" (%d still waiting at the end)", unfinished) : "",
                    row.medianRatio("probeP99Ms", "baseP99Ms")));
            table.append(f("%s%.0f (%.0f) | %.1f | ", oneStopped > 0 ? "> " : "", row.median("oneFileMs"),
                    row.median("singleMs"), row.medianRatio("oneFileMs", "singleMs")));
            table.append(cpuAndAllocation(row, report.n(Scenario.E) + 1));
            table.append(f("%.0f / %.0f | %.0f |%n", row.max("heapUsedMiB"), row.max("heapAfterGcMiB"),
                    row.max("threads")));
        }
        return table.toString();
    }

    /** The client CPU per upload without the JIT's (and the JIT's per run), and the bytes allocated per upload. */
    private static String cpuAndAllocation(Report.Row row, int uploads) {
        double cpu = row.cpuPerUploadMicros(uploads);
        if (Double.isNaN(cpu)) { // a run kept before these were measured
            return row.values("cpuMs").length == 0 ? " | | " : f("%.0f, JIT included | | ", row.median("cpuMs") * 1e3
                    / uploads);
        }
        return f("%.0f (%.0f) | %.1f | ", cpu, row.median("jitCpuMs"), row.allocatedPerUploadKiB(uploads));
    }

    /** Draws the scenario's chart and returns the Markdown that shows it. */
    String chart(Scenario scenario, Path dir) throws IOException {
        List<Report.Row> measured = report.rows(scenario).stream().filter(Report.Row::measured).toList();
        List<String> labels = measured.stream().map(r -> r.kind().shortLabel).toList();
        Path file = dir.resolve("scenario-" + scenario.name().toLowerCase(Locale.ROOT)
                + (scenario.onServer() ? "-" + report.context.server().id() : "") + ".png");
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
                    new Charts.Series("ideal at its concurrency", measured.stream().map(report::ownIdeal).toList())));
            if (!Double.isNaN(report.plainSeconds(scenario))) {
                series.add(new Charts.Series("plain threads at the scenario's concurrency",
                        measured.stream().map(r -> report.plainSeconds(scenario)).toList()));
            }
            Charts.bars(file, report.label(scenario) + ": makespan, median of " + report.context.scale().runs() * report.context.scale()
                    .rounds() + " runs (s)", "s",
                    labels, series, false);
        }
        return "![" + scenario.name() + "](" + Report.CHARTS + "/" + file.getFileName() + ")\n\n";
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
