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
 * with the same options ({@link Fork}); prints the tables and writes the report and its charts.
 *
 * <pre>
 * BenchmarkMain [--quick] [--scenarios=A,B,C,D,E] [--out=DIR] [--report-from=FILE]
 * </pre>
 *
 * The full run writes {@code docs/benchmarks.md} and {@code docs/benchmarks/*.png}; a quick run writes under
 * {@code benchmarks/target/quick-<server>/}. Every result line is also kept, as it comes, in
 * {@code benchmarks/target/<full|quick>-<server>-results.txt}; {@code --report-from=FILE} writes the report again from such a
 * file without measuring anything (after a change to the report, or a run that did not get to the end). The S3 server
 * ({@code BOUNDED_UPLOAD_S3_SERVER}: LocalStack by default, or versitygw) and Toxiproxy must be running
 * ({@code scripts/benchmark.sh} starts them) and given by {@code BOUNDED_UPLOAD_S3_ENDPOINT} and
 * {@code BOUNDED_UPLOAD_TOXIPROXY_URL}. A run on versitygw writes under {@code docs/benchmarks-versitygw/}.
 */
public final class BenchmarkMain {

    /** The same for every measured JVM: a fixed heap, so that heap figures compare. */
    static final List<String> JVM_OPTIONS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
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
        List<Scenario> scenarios = Arrays.asList(Scenario.values());
        Path out = null;
        Path reportFrom = null;
        for (String arg : args) {
            if (arg.equals("--quick")) {
                scale = Scale.QUICK;
            } else if (arg.startsWith("--scenarios=")) {
                scenarios = Arrays.stream(arg.substring("--scenarios=".length()).split(","))
                        .map(String::trim).map(Scenario::valueOf).toList();
            } else if (arg.startsWith("--out=")) {
                out = Path.of(arg.substring("--out=".length()));
            } else if (arg.startsWith("--report-from=")) {
                reportFrom = Path.of(arg.substring("--report-from=".length()));
            } else {
                throw new IllegalArgumentException("unknown argument " + arg
                        + "; usage: [--quick] [--scenarios=A,B,C,D,E] [--out=DIR] [--report-from=FILE]");
            }
        }
        S3Server server = S3Server.selected();
        if (out == null) {
            // LocalStack's report is docs/benchmarks.md; another server's goes beside it, in a directory of its own.
            Path docs = server == S3Server.LOCALSTACK ? Path.of("docs") : Path.of("docs", "benchmarks-" + server.id());
            out = scale == Scale.FULL ? docs : Path.of("benchmarks", "target", "quick-" + server.id());
        }
        if (reportFrom != null) {
            write(Kept.read(reportFrom), scenarios, out);
            return;
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
            for (StrategyKind kind : StrategyKind.values()) {
                if (!scenario.measures(kind)) {
                    continue;
                }
                int jvms = scenario == Scenario.E ? scale.runs() : 1;
                for (int run = 1; run <= jvms; run++) {
                    for (Map<String, String> result : fork(List.of(scenario.name(), kind.name(), scale.name(),
                            String.valueOf(run)))) {
                        result.putIfAbsent("scenario", scenario.name());
                        result.putIfAbsent("strategy", kind.name());
                        kept.add(result);
                    }
                }
            }
        }
        write(kept.finish(load()), scenarios, out);
    }

    private static void write(Kept kept, List<Scenario> scenarios, Path out) throws IOException {
        Report report = new Report(kept.context(), kept.calibration(), scenarios, kept.results());
        System.out.println();
        System.out.println(report.tables());
        report.write(out);
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
        }
        command.add("-Dbench.data=" + System.getProperty("bench.data", "benchmarks/target/bench-data"));
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
