package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.S3Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every line of a run, kept in a file as it comes (the run's context first, then the calibration, then the results,
 * then when it ended), so that the report can be written again from it ({@code --report-from}). Changes when what a run
 * keeps of its lines, or the order they are kept in, changes.
 */
final class Kept {

    private static final String CONTEXT = "context";
    private static final String CALIBRATION = "calibration";
    private static final String END = "end";

    private final Path file;
    private final Report.Context context;
    private final Map<String, String> calibration;
    private final List<Map<String, String>> results;

    private Kept(Path file, Report.Context context, Map<String, String> calibration,
            List<Map<String, String>> results) {
        this.file = file;
        this.context = context;
        this.calibration = calibration;
        this.results = results;
    }

    /** Starts a new file with the run's context. */
    static Kept start(Path file, Report.Context context) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Map<String, String> line = new LinkedHashMap<>();
        line.put("scenario", CONTEXT);
        line.put("scale", context.scale().name());
        line.put("server", context.server().id());
        line.put("started", context.started().toString());
        line.put("loadBefore", context.loadBefore());
        line.put("java", context.java());
        line.put("cores", String.valueOf(context.cores()));
        line.put("jvmOptions", context.jvmOptions());
        Files.writeString(file, Line.format(line) + "\n", StandardCharsets.UTF_8);
        return new Kept(file, context, new LinkedHashMap<>(), new ArrayList<>());
    }

    /** Keeps a calibration or result line. */
    void add(Map<String, String> line) throws IOException {
        if (CALIBRATION.equals(line.get("scenario"))) {
            calibration.putAll(line);
        } else {
            results.add(line);
        }
        Files.writeString(file, Line.format(line) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** Notes the end of the run. */
    Kept finish(String loadAfter) throws IOException {
        Report.Context finished = context.finished(loadAfter);
        Map<String, String> line = new LinkedHashMap<>();
        line.put("scenario", END);
        line.put("finished", finished.finished().toString());
        line.put("loadAfter", loadAfter);
        Files.writeString(file, Line.format(line) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        return new Kept(file, finished, calibration, results);
    }

    /** Reads a kept file back; a run that did not get to its end ended when the file was last written. */
    static Kept read(Path file) throws IOException {
        Report.Context context = null;
        Map<String, String> calibration = new LinkedHashMap<>();
        List<Map<String, String>> results = new ArrayList<>();
        for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!text.startsWith(Line.PREFIX)) {
                continue;
            }
            Map<String, String> line = Line.parse(text);
            switch (line.getOrDefault("scenario", "")) {
                case CONTEXT -> context = new Report.Context(Scale.named(line.get("scale")),
                        S3Server.of(line.getOrDefault("server", S3Server.LOCALSTACK.id())),
                        Instant.parse(line.get("started")), line.get("loadBefore"), line.get("java"),
                        Integer.parseInt(line.get("cores")), line.get("jvmOptions"));
                case CALIBRATION -> calibration.putAll(line);
                case END -> context = context.finished(Instant.parse(line.get("finished")), line.get("loadAfter"));
                default -> results.add(line);
            }
        }
        if (context == null) {
            throw new IOException(file + " does not start with the run's context line");
        }
        if (context.finished().equals(context.started())) { // the run did not get to its end: it ended with the file
            context = context.finished(Files.getLastModifiedTime(file).toInstant(), "unknown");
        }
        return new Kept(file, context, calibration, results);
    }

    Report.Context context() {
        return context;
    }

    Map<String, String> calibration() {
        return calibration;
    }

    /** The scenarios this run has results of, in their order. */
    List<Scenario> scenarios() {
        return java.util.Arrays.stream(Scenario.values())
                .filter(s -> results.stream().anyMatch(r -> s.name().equals(r.get("scenario")))).toList();
    }

    List<Map<String, String>> results() {
        return results;
    }
}
