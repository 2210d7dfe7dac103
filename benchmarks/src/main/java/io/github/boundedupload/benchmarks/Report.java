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
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Turns the result lines into {@code benchmarks.md}: per scenario the medians and spreads, the ideal and the ratio to
 * it, heap and threads; the targets, met or missed by how much; and the charts. Changes when what the report says, or
 * which figures it states, changes.
 *
 * <p>(Longer than the project's usual on purpose: every sentence of the report that carries a figure is here, next
 * to the figure it states, so that the text and the numbers change together. Scenario F's part is
 * {@link AdaptiveReport}.)
 */
final class Report {

    static final String FILE_NAME = "benchmarks.md";
    /** The "scenario" of the result lines of {@link PairUploads#run}: a library strategy and its anchor in one JVM. */
    static final String PAIR = "pair";
    /** The "scenario" of the result lines of {@link PairUploads#runMixed}: scenario M's pairs ({@link MixedReport}). */
    static final String PAIR_M = "pair-M";
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

        /**
         * The client's CPU time per upload, in microseconds, without the JIT compiler's (median over the runs that
         * measured it; NaN when none did): what an upload costs once the code is compiled.
         */
        double cpuPerUploadMicros(int uploads) {
            return Stats.median(runs.stream().filter(run -> run.containsKey("jitCpuMs"))
                    .mapToDouble(run -> (Double.parseDouble(run.get("cpuMs")) - Double.parseDouble(run.get("jitCpuMs")))
                            * 1e3 / uploads).toArray());
        }

        /** Heap bytes allocated per upload, in KiB (median; NaN when not measured). */
        double allocatedPerUploadKiB(int uploads) {
            return median("allocatedMiB") * 1024 / uploads;
        }

        long count(Predicate<Map<String, String>> which) {
            return runs.stream().filter(which).count();
        }
    }

    /**
     * A library strategy and its anchor on the same client in one JVM, their batches of scenario B alternating
     * ({@link PairUploads#run}): one map per round, with both batches' figures.
     */
    record Pair(StrategyKind kind, StrategyKind anchor, List<Map<String, String>> rounds, String failure) {

        double median(String key) {
            return Stats.median(rounds.stream().mapToDouble(round -> Double.parseDouble(round.get(key))).toArray());
        }

        /**
         * The median over the rounds of one round's {@code key} over its {@code anchorKey}: each round's two batches
         * ran next to each other, so a slow minute of the machine cancels out of its ratio, where it may not out of
         * two medians taken apart.
         */
        double ratio(String key, String anchorKey) {
            return Stats.median(rounds.stream().mapToDouble(round -> Double.parseDouble(round.get(key))
                    / Double.parseDouble(round.get(anchorKey))).toArray());
        }

        /** The pool against a second pool of its own: no difference but the instrument's error. */
        boolean sameStrategy() {
            return kind == anchor;
        }

        /** The lowest and highest of a figure over the rounds. */
        String range(String key, double scale, String format) {
            double[] values = rounds.stream().mapToDouble(round -> Double.parseDouble(round.get(key)) * scale)
                    .sorted().toArray();
            return values.length == 0 ? "-" : f(format + "-" + format, values[0], values[values.length - 1]);
        }
    }

    final Context context;
    private final Map<String, String> calibration;
    final List<Scenario> scenarios;
    private final List<Row> rows = new ArrayList<>();
    private final List<Pair> pairs = new ArrayList<>();
    final AdaptiveReport adaptive;
    final MixedReport mixed;

    Report(Context context, Map<String, String> calibration, List<Scenario> scenarios,
            List<Map<String, String>> results) {
        this.context = context;
        this.calibration = calibration;
        this.scenarios = scenarios;
        this.adaptive = new AdaptiveReport(context.scale(), results);
        this.mixed = new MixedReport(results);
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
        for (StrategyKind kind : StrategyKind.values()) {
            List<Map<String, String>> mine = results.stream()
                    .filter(r -> PAIR.equals(r.get("scenario")) && kind.name().equals(r.get("strategy"))).toList();
            if (!mine.isEmpty()) {
                String failure = mine.stream().filter(r -> r.containsKey("failed")).map(r -> r.get("failed"))
                        .findFirst().orElse(null);
                pairs.add(new Pair(kind, Targets.cpuAnchor(kind), mine.stream().filter(r -> r.containsKey("cpuUs"))
                        .toList(), failure));
            }
        }
    }

    // ---- ideals ---------------------------------------------------------------------------------------------

    int n(Scenario scenario) {
        return scenario.uploads(context.scale());
    }

    double latencySeconds(Scenario scenario) {
        return Calibration.latency(scenario, context.scale(), calibration).toNanos() / 1e9;
    }

    /**
     * The plainest client at the scenario's concurrency through the proxy (A and B), in seconds, measured by the
     * calibration; NaN elsewhere.
     */
    double plainSeconds(Scenario scenario) {
        String key = switch (scenario) {
            case A -> "aPlainMs";
            case B -> "bPlainMs";
            default -> null;
        };
        return key == null || !calibration.containsKey(key) ? Double.NaN
                : Double.parseDouble(calibration.get(key)) / 1e3;
    }

    /** One PutObject of a large file through the proxy, in MB/s: what bytes cost there. */
    double proxyMBps() {
        return Double.parseDouble(calibration.getOrDefault("proxyMBps", "NaN"));
    }

    /** The bytes of a latency-bound scenario's batch on a server (A, B, M), in MB. */
    double batchMB(Scenario scenario) {
        return switch (scenario) {
            case A -> Scenario.A_FILES * (double) Scenario.A_SIZE / 1e6;
            case B -> n(scenario) * (double) Scenario.B_SIZE / 1e6;
            case M -> ScenarioM.totalBytes() / 1e6;
            default -> 0;
        };
    }

    double streamMBps() {
        return Double.parseDouble(calibration.get("streamMBps"));
    }

    double multipartMBps() {
        return Double.parseDouble(calibration.getOrDefault("multipartMBps", "NaN"));
    }

    double cTotalMB() {
        return Scenario.C_FILES * context.scale().cFileBytes() / 1e6;
    }

    /**
     * The best time with {@code inFlight} uploads at once, in seconds: {@code max(ceil(N / in flight) x latency,
     * bytes / throughput)}, the latency and the throughput measured in the same run through the same path (the proxy
     * for A and B; straight to the server, no latency added, for C).
     */
    double ideal(Scenario scenario, int inFlight) {
        double rounds = Math.ceil(n(scenario) / (double) inFlight) * latencySeconds(scenario);
        return switch (scenario) {
            case C -> cTotalMB() / streamMBps();
            case A, B, M -> Double.isNaN(proxyMBps()) ? rounds : Math.max(rounds, batchMB(scenario) / proxyMBps());
            default -> rounds;
        };
    }

    /** The scenario's name, with the server it measured where it measured one ("B on versitygw"). */
    String label(Scenario scenario) {
        return scenario.onServer() ? scenario.name() + " on " + server() : scenario.name();
    }

    double ownIdeal(Row row) {
        return ideal(row.scenario(), row.scenario().inFlight(row.kind(), context.scale()));
    }

    /** The scenario's ideal: at the most uploads in flight any strategy of it is given. */
    double scenarioIdeal(Scenario scenario) {
        int most = Arrays.stream(StrategyKind.values()).mapToInt(k -> scenario.inFlight(k, context.scale())).max()
                .orElse(1);
        return ideal(scenario, scenario == Scenario.E ? Scenario.E_PER_BATCH : most);
    }

    // ---- tables ---------------------------------------------------------------------------------------------

    List<Row> rows(Scenario scenario) {
        return rows.stream().filter(r -> r.scenario() == scenario).toList();
    }

    Row row(Scenario scenario, StrategyKind kind) {
        return rows.stream().filter(r -> r.scenario() == scenario && r.kind() == kind).findFirst().orElseThrow();
    }

    /**
     * The pair of a row's strategy with its anchor in one JVM, if this run measured one with rounds: it ran scenario
     * B's batch, so only a row of B has one.
     */
    Optional<Pair> pair(Row row) {
        return row.scenario() == Scenario.B ? pair(row.kind()) : Optional.empty();
    }

    private Optional<Pair> pair(StrategyKind kind) {
        return pairs.stream().filter(p -> p.kind() == kind && !p.rounds().isEmpty()).findFirst();
    }

    /** The pool paired with a pool of its own, the pairs' error bar, if this run measured it. */
    Optional<Pair> samePair() {
        return pair(StrategyKind.COMPLETABLE_FUTURE).filter(Pair::sameStrategy);
    }

    List<Pair> pairs() {
        return pairs;
    }

    /** The result tables, as printed at the end of a run. */
    String tables() {
        return new Tables(this).all();
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
                results.append(new Tables(report).tables(scenario));
                if (scenario != Scenario.F) { // a table of its own, no chart
                    results.append(new Tables(report).chart(scenario, charts));
                }
                new Targets(report).verdicts(scenario).forEach(verdict -> targets.append(Targets.row(verdict)));
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
        Path file = dir.resolve(FILE_NAME);
        // The direct-upload section is measured apart (scripts/benchmark.sh --direct): kept as it was.
        Files.writeString(file, text + DirectReport.section(file));
    }

    /** The S3 server scenarios A, B and C ran against. */
    String server() {
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

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
