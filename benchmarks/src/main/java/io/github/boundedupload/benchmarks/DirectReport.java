package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The section of docs/benchmarks.md that {@link DirectBenchmark} measures: per server and workload, the application's
 * CPU, heap peak, thread peak and request time through it and directly (medians of the rounds), and the ratios. Written
 * between its two marker lines, which it adds at the end of the page the first time. Changes when what the section
 * shows changes.
 */
final class DirectReport {

    private DirectReport() {
    }

    static void write(List<String> resultFiles, Path doc) throws IOException {
        Map<String, List<Map<String, String>>> runs = new LinkedHashMap<>();
        int rounds = 0;
        for (String file : resultFiles) {
            for (String line : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
                Map<String, String> fields = new HashMap<>();
                for (String pair : line.trim().split(" ")) {
                    String[] kv = pair.split("=", 2);
                    fields.put(kv[0], kv[1]);
                }
                runs.computeIfAbsent(fields.get("server") + " " + fields.get("workload") + " " + fields.get("mode"),
                        k -> new ArrayList<>()).add(fields);
                rounds = Math.max(rounds, Integer.parseInt(fields.get("round")) + 1);
            }
        }
        StringBuilder section = new StringBuilder(DirectBenchmark.BEGIN).append("\n\n");
        section.append("## Direct uploads: what the application does, through it and directly\n\n");
        section.append("Source 001's batch (1,344 files of 256 KiB) and its 4 files of 180 MB, one request each: through"
                + " the application (the library uploads them from its disk, as after a multipart request was"
                + " received; receiving them is not counted, so this understates the difference), and directly (the"
                + " application grants a signed PUT per file, a client process of its own sends the bytes to S3, the"
                + " application confirms: a HeadObject and a server-side copy per file, multipart copies for the large"
                + " ones). Each application is a JVM of its own (`-Xmx512m`, a blocking client of 64 connections):"
                + " its process's CPU, the peak of its heap pools (what was allocated before a collection, not only what was live) and of its threads over the request, and the"
                + " request's time (grant and confirm, directly); the client's sending is its own column. Medians of "
                + rounds + " round(s), on this 2-core machine with the server on it too: compare the rows of one"
                + " server and workload with each other. `scripts/benchmark.sh --direct` measures and writes this"
                + " section (`DirectBenchmark`).\n\n");
        section.append("| server | workload | path | bytes the application sends | application CPU | heap peak"
                + " | threads peak | request time | client sending |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        List<String> ratios = new ArrayList<>();
        for (Map.Entry<String, List<Map<String, String>>> entry : runs.entrySet()) {
            String[] key = entry.getKey().split(" ");
            List<Map<String, String>> list = entry.getValue();
            double cpu = median(list, "cpu_s");
            boolean through = key[2].equals("through");
            section.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f s | %.0f MB | %.0f | %.2f s | %s |%n",
                    key[0], workload(key[1]), through ? "through the application" : "directly",
                    through ? String.format(Locale.ROOT, "%.0f MB", Double.parseDouble(list.get(0).get("bytes")) / 1e6)
                            : "none (requests only)", cpu, median(list, "heap_peak_mb"), median(list, "threads_peak"), median(list, "request_s"),
                    key[2].equals("direct") ? String.format(Locale.ROOT, "%.2f s", median(list, "transfer_s"))
                            : "(in the request)"));
            if (key[2].equals("direct")) {
                List<Map<String, String>> other = runs.get(key[0] + " " + key[1] + " through");
                if (other != null) {
                    ratios.add(String.format(Locale.ROOT, "%s, %s: CPU %.2fx, request time %.2fx, heap peak %.2fx",
                            key[0], workload(key[1]), cpu / median(other, "cpu_s"),
                            median(list, "request_s") / median(other, "request_s"),
                            median(list, "heap_peak_mb") / median(other, "heap_peak_mb")));
                }
            }
        }
        section.append("\nDirectly against through the application (ratios of the medians):\n\n");
        ratios.forEach(line -> section.append("- ").append(line).append('\n'));
        section.append('\n').append(DirectBenchmark.END);

        String text = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : "";
        int start = text.indexOf(DirectBenchmark.BEGIN);
        int end = text.indexOf(DirectBenchmark.END);
        String updated = start >= 0 && end > start
                ? text.substring(0, start) + section + text.substring(end + DirectBenchmark.END.length())
                : text + (text.endsWith("\n") ? "\n" : "\n\n") + section + "\n";
        Files.writeString(doc, updated, StandardCharsets.UTF_8);
    }

    /**
     * The section as a page has it, between its markers and with a blank line before, or nothing.
     *
     * @param doc the page
     * @return the section, or an empty string
     * @throws IOException when the page cannot be read
     */
    static String section(Path doc) throws IOException {
        String text = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : "";
        int start = text.indexOf(DirectBenchmark.BEGIN);
        int end = text.indexOf(DirectBenchmark.END);
        return start >= 0 && end > start ? "\n" + text.substring(start, end + DirectBenchmark.END.length()) + "\n" : "";
    }

    private static String workload(String name) {
        return switch (name) {
            case "b" -> "1,344 x 256 KiB";
            case "c" -> "4 x 180 MB";
            case "b-quick" -> "100 x 256 KiB (quick)";
            case "c-quick" -> "4 x 24 MB (quick)";
            default -> name;
        };
    }

    private static double median(List<Map<String, String>> runs, String field) {
        double[] values = runs.stream().mapToDouble(run -> Double.parseDouble(run.get(field))).sorted().toArray();
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }
}
