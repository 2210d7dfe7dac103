package io.github.boundedupload.benchmarks;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one line a measured JVM prints per result, and how the harness reads it back:
 * {@code RESULT key=value key=value ...}, values URL-encoded so that they hold no spaces. Changes when the format of a
 * result line changes.
 */
final class Line {

    static final String PREFIX = "RESULT ";

    private Line() {
    }

    static String format(Map<String, ?> values) {
        StringBuilder line = new StringBuilder(PREFIX);
        values.forEach((key, value) -> line.append(key).append('=')
                .append(URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8)).append(' '));
        return line.toString().trim();
    }

    static Map<String, String> parse(String line) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : line.substring(PREFIX.length()).trim().split(" ")) {
            int equals = pair.indexOf('=');
            values.put(pair.substring(0, equals),
                    URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return values;
    }
}
