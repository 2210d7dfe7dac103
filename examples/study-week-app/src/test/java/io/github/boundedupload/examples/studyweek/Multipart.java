package io.github.boundedupload.examples.studyweek;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A {@code multipart/form-data} body written byte for byte, so that tests send exactly what a browser or an attacker
 * would, file names included (no client library in between to clean them up).
 */
final class Multipart {

    private final String boundary = "----study-week-test-" + UUID.randomUUID();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    /** A form with the fields of a valid week. */
    static Multipart week(String title) {
        return new Multipart().field("title", title).field("content", "Graphs, week 3")
                .field("startDate", "2026-11-16").field("endDate", "2026-11-22");
    }

    Multipart field(String name, String value) {
        write("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n");
        return this;
    }

    /** A file part, its name written as browsers do: UTF-8, with only {@code "} escaped (as %22). */
    Multipart file(String fileName, byte[] content) {
        write("--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\""
                + fileName.replace("\"", "%22") + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
        body.writeBytes(content);
        write("\r\n");
        return this;
    }

    Multipart file(String fileName, String content) {
        return file(fileName, content.getBytes(StandardCharsets.UTF_8));
    }

    String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    HttpRequest.BodyPublisher publisher() {
        return HttpRequest.BodyPublishers.ofByteArray(bytes());
    }

    /** The whole body, closing delimiter included. */
    byte[] bytes() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.writeBytes(body.toByteArray());
        all.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return all.toByteArray();
    }

    private void write(String text) {
        body.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
