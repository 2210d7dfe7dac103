package io.github.boundedupload.examples.studyweek;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** The application's HTTP API, over a real connection to the running server. */
final class Api {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    Api(int port) {
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    URI uri(String path) {
        return base.resolve(path);
    }

    Response post(String path, Multipart form, String... headers) {
        return join(postAsync(path, form, headers));
    }

    CompletableFuture<Response> postAsync(String path, Multipart form, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", form.contentType()).POST(form.publisher());
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(Response::new);
    }

    /** A POST of exactly these bytes, with this content type (or none): for bodies no well-behaved client sends. */
    Response postRaw(String path, String contentType, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return join(http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(Response::new));
    }

    /**
     * Sends these bytes as they are, on a connection of its own, and reads the whole answer: for headers the HTTP
     * client will not send ({@code Host}). The request must say {@code Connection: close}.
     */
    String raw(byte[] request) {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Response get(String pathOrUrl, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(pathOrUrl)).timeout(Duration.ofSeconds(60)).GET();
        if (headers.length > 0) {
            request.headers(headers);
        }
        return join(http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(Response::new));
    }

    private static Response join(CompletableFuture<Response> response) {
        try {
            return response.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof IOException io ? new UncheckedIOException(io) : e;
        }
    }

    /** A response, its body kept as bytes. */
    static final class Response {
        private final HttpResponse<byte[]> response;

        Response(HttpResponse<byte[]> response) {
            this.response = response;
        }

        int status() {
            return response.statusCode();
        }

        HttpHeaders headers() {
            return response.headers();
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        byte[] bytes() {
            return response.body();
        }

        String text() {
            return new String(response.body(), StandardCharsets.UTF_8);
        }

        DocumentContext json() {
            return JsonPath.parse(text());
        }

        <T> T json(String path, Class<T> type) {
            return json().read(path, type);
        }

        @Override
        public String toString() {
            return response.statusCode() + " " + response.headers().map() + " " + text();
        }
    }
}
