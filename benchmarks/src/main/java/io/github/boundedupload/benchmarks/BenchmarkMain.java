package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.S3Server;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The harness: runs the calibration, then every scenario with every strategy, each measurement in a JVM of its own
 * with the same options ({@link Fork}); prints the tables and writes the report and its charts. Changes when the
 * harness's order of work, its options or what it writes change.
 *
 * <pre>
 * BenchmarkMain [--quick] [--scenarios=A,B,C,D,E,F,M] [--out=DIR] [--report-from=FILE[,FILE]]
 * </pre>
 *
 * One run measures one S3 server ({@code BOUNDED_UPLOAD_S3_SERVER}: LocalStack by default, or versitygw), which, with
 * Toxiproxy, must be running ({@code scripts/benchmark.sh} starts them) and given by {@code BOUNDED_UPLOAD_S3_ENDPOINT}
 * and {@code BOUNDED_UPLOAD_TOXIPROXY_URL}; without {@code --scenarios}, the scenarios of
 * {@link Scenario#defaults(S3Server)}. It writes its report under {@code benchmarks/target/<full|quick>-<server>/}
 * (or {@code --out}). Every result line is also kept, as it comes, in
 * {@code benchmarks/target/<full|quick>-<server>-results.txt}; {@code --report-from=FILE,FILE} writes one report from
 * such files (one per server) without measuring anything: that is how {@code scripts/benchmark.sh} puts the runs on
 * LocalStack and on versitygw into {@code docs/benchmarks.md}, and how a report is written again after a change to it.
 */
public final class BenchmarkMain {

    /** The same for every measured JVM: a fixed heap, so that heap figures compare. */
    static final List<String> JVM_OPTIONS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC",
            "-XX:-UseDynamicNumberOfCompilerThreads", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    private static final Duration FORK_TIMEOUT = Duration.ofMinutes(20);

    private BenchmarkMain() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args {@code --quick}, {@code --scenarios=A,C}, {@code --out=DIR}, {@code --report-from=FILE}
     * @throws Exception when the calibration or writing the report fails
     */
    public static void main(String[] args) throws Exception {
        Scale scale = Scale.FULL;
        List<Scenario> scenarios = null;
        Path out = null;
        List<Path> reportFrom = List.of();
        for (String arg : args) {
            if (arg.equals("--quick")) {
                scale = Scale.QUICK;
            } else if (arg.startsWith("--scenarios=")) {
                scenarios = Arrays.stream(arg.substring("--scenarios=".length()).split(","))
                        .map(String::trim).map(Scenario::valueOf).toList();
            } else if (arg.startsWith("--out=")) {
                out = Path.of(arg.substring("--out=".length()));
            } else if (arg.startsWith("--report-from=")) {
                reportFrom = Arrays.stream(arg.substring("--report-from=".length()).split(",")).map(Path::of)
                        .toList();
            } else {
                throw new IllegalArgumentException("unknown argument " + arg
                        + "; usage: [--quick] [--scenarios=A,B,C,D,E,F,M] [--out=DIR] [--report-from=FILE[,FILE]]");
            }
        }
        if (!reportFrom.isEmpty()) {
            List<Kept> runs = new ArrayList<>();
            for (Path file : reportFrom) {
                runs.add(Kept.read(file));
            }
            write(runs, scenarios, out != null ? out : Path.of("benchmarks", "target", "report"));
            return;
        }
        S3Server server = S3Server.selected();
        if (scenarios == null) {
            scenarios = Scenario.defaults(server);
        }
        if (out == null) {
            out = Path.of("benchmarks", "target", scale.name() + "-" + server.id());
        }
        Report.Context context = new Report.Context(scale, server, Instant.now(), load(),
                Runtime.version().toString(), Runtime.getRuntime().availableProcessors(), String.join(" ", JVM_OPTIONS));
        Kept kept = Kept.start(Path.of("benchmarks", "target", scale.name() + "-" + server.id() + "-results.txt"),
                context);

        System.out.printf("bounded-upload benchmarks, %s run on %s, load %s%n", scale.name(), server.displayName(),
                context.loadBefore());
        Map<String, String> calibration = fork(List.of("calibration", "-", scale.name(), "1")).stream()
                .filter(r -> !r.containsKey("failed")).findFirst()
                .orElseThrow(() -> new IllegalStateException("the calibration failed; see its output above"));
        System.out.println("calibration: " + calibration);
        kept.add(calibration);

        for (Scenario scenario : scenarios) {
            List<StrategyKind> kinds = Arrays.stream(StrategyKind.values()).filter(scenario::measures).toList();
            for (int round = 1; round <= scenario.rounds(scale); round++) {
                for (int i = 0; i < kinds.size(); i++) {
                    StrategyKind kind = kinds.get((i + round - 1) % kinds.size()); // each round starts one later
                    if (round > 1 && scenario.firstRoundOnly(kind)) {
                        continue;
                    }
                    for (Map<String, String> result : fork(List.of(scenario.name(), kind.name(), scale.name(),
                            String.valueOf(round)))) {
                        result.putIfAbsent("scenario", scenario.name());
                        result.putIfAbsent("strategy", kind.name());
                        kept.add(result);
                    }
                }
            }
            // On versitygw, where B's targets are judged: each library strategy and its CPU target's anchor in one JVM,
            // and the pool with a pool of its own (Targets.cpuAnchor), the instrument's error bar.
            if (scenario == Scenario.B && server == S3Server.VERSITYGW) {
                for (StrategyKind kind : kinds.stream()
                        .filter(k -> k.library || k == StrategyKind.COMPLETABLE_FUTURE).toList()) {
                    for (Map<String, String> result : fork(List.of(Report.PAIR, kind.name(), scale.name(),
                            String.valueOf(PairUploads.rounds(scale))))) {
                        result.putIfAbsent("scenario", Report.PAIR);
                        result.putIfAbsent("strategy", kind.name());
                        kept.add(result);
                    }
                }
            }
            // Scenario M's pairs: each mode of this library against a plain pool on the same kind of client.
            if (scenario == Scenario.M) {
                for (StrategyKind kind : List.of(StrategyKind.LIBRARY_PLATFORM, StrategyKind.LIBRARY_NON_BLOCKING)) {
                    for (Map<String, String> result : fork(List.of(Report.PAIR_M, kind.name(), scale.name(),
                            String.valueOf(PairUploads.rounds(scale))))) {
                        result.putIfAbsent("scenario", Report.PAIR_M);
                        result.putIfAbsent("strategy", kind.name());
                        kept.add(result);
                    }
                }
            }
        }
        write(List.of(kept.finish(load())), scenarios, out);
    }

    /**
     * Writes the report of one run, or of runs on several servers: of the scenarios given, or (null) of those each run
     * measured.
     */
    private static void write(List<Kept> runs, List<Scenario> scenarios, Path out) throws IOException {
        List<Report> reports = runs.stream().map(kept -> new Report(kept.context(), kept.calibration(),
                scenarios != null ? scenarios : kept.scenarios(), kept.results())).toList();
        System.out.println();
        reports.forEach(report -> System.out.println(report.tables()));
        Report.write(out, reports);
        System.out.println("wrote " + out.resolve(Report.FILE_NAME) + " and charts in " + out.resolve(Report.CHARTS));
    }

    /**
     * Runs one measured JVM and returns its result lines; a JVM that fails or hangs gives a result with
     * {@code failed} set (after the results of the runs it completed).
     */
    private static List<Map<String, String>> fork(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JVM_OPTIONS);
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow"); // Netty's, on Java 24+: a warning, not a result
            command.add("--enable-native-access=ALL-UNNAMED"); // the CRT client's, likewise
        }
        command.add("-Dbench.data=" + System.getProperty("bench.data", "benchmarks/target/bench-data"));
        for (String tls : List.of("javax.net.ssl.trustStore", "javax.net.ssl.trustStorePassword")) {
            if (System.getProperty(tls) != null) { // over HTTPS: the test servers' certificate (scripts/benchmark.sh)
                command.add("-D" + tls + "=" + System.getProperty(tls));
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Fork.class.getName()));
        command.addAll(args);
        System.out.println("> " + String.join(" ", args));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Map<String, String>> results = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    System.out.println("  " + line);
                    if (line.startsWith(Line.PREFIX)) {
                        synchronized (results) {
                            results.add(Line.parse(line));
                        }
                    }
                }
            } catch (IOException e) {
                System.out.println("  (lost the measured JVM's output: " + e + ")");
            }
        });
        reader.start();
        boolean ended = process.waitFor(FORK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        reader.join();
        if (!ended || process.exitValue() != 0) {
            Map<String, String> failed = new LinkedHashMap<>();
            failed.put("failed", ended ? "exit code " + process.exitValue() : "no result within " + FORK_TIMEOUT);
            results.add(failed);
        }
        return results;
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
