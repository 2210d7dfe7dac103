package io.github.boundedupload.benchmarks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP proxy in front of a real S3 server that behaves like a server past its knee (scenario F): up to
 * {@code knee} requests in flight each takes {@code latency}; beyond it every request takes longer than the extra
 * requests are worth ({@code latency x (1 + (inFlight - knee) / 4)}, so that throughput falls as concurrency rises,
 * as on an overloaded server), and beyond {@code 4 x knee} it answers S3's {@code 503 SlowDown} at once. Requests are
 * forwarded unchanged (the {@code Host} header included, so that the SigV4 signature still holds), over HTTP/1.1.
 * Changes when how the proxy degrades past its knee, or how it forwards requests, changes.
 *
 * <p>Needs {@code -Djdk.httpclient.allowRestrictedHeaders=host} (set by {@link Fork} before any HTTP client loads).
 */
final class ThrottlingProxy implements AutoCloseable {

    /** Headers that belong to one hop, or that the JDK's client sets itself. */
    private static final Set<String> HOP = Set.of("connection", "content-length", "expect", "host", "keep-alive",
            "transfer-encoding", "upgrade", "te", "trailer", "proxy-connection", "date");
    private static final byte[] SLOW_DOWN = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
            + "<Message>Please reduce your request rate.</Message><RequestId>throttling-proxy</RequestId></Error>")
            .getBytes(StandardCharsets.UTF_8);

    private final URI upstream;
    private final int knee;
    private final Duration latency;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient client;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();
    private final AtomicLong slowDowns = new AtomicLong();

    ThrottlingProxy(URI upstream, int knee, Duration latency) throws IOException {
        if (!"host".equalsIgnoreCase(System.getProperty("jdk.httpclient.allowRestrictedHeaders"))) {
            throw new IllegalStateException("needs -Djdk.httpclient.allowRestrictedHeaders=host");
        }
        this.upstream = upstream;
        this.knee = knee;
        this.latency = latency;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(threads).build();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Requests answered {@code 503 SlowDown} so far. */
    long slowDowns() {
        return slowDowns.get();
    }

    /** The most requests that were in flight at once so far; then starts again from those in flight now. */
    int takeMostInFlight() {
        return mostInFlight.getAndSet(inFlight.get());
    }

    /** How long a request takes with {@code n} in flight (itself included). */
    Duration serviceTime(int n) {
        return n <= knee ? latency : latency.plus(latency.multipliedBy(n - knee).dividedBy(4));
    }

    private void handle(HttpExchange exchange) throws IOException {
        int n = inFlight.incrementAndGet();
        mostInFlight.accumulateAndGet(n, Math::max);
        try {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (n > 4 * knee) {
                slowDowns.incrementAndGet();
                exchange.getResponseHeaders().add("Content-Type", "application/xml");
                respond(exchange, 503, SLOW_DOWN);
                return;
            }
            long start = System.nanoTime();
            HttpResponse<byte[]> answer = forward(exchange, body);
            long left = serviceTime(n).toNanos() - (System.nanoTime() - start);
            if (left > 0) {
                Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            }
            answer.headers().map().forEach((name, values) -> {
                if (!HOP.contains(name.toLowerCase(Locale.ROOT))) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            respond(exchange, answer.statusCode(), exchange.getRequestMethod().equals("HEAD") ? null : answer.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(500, -1);
        } finally {
            inFlight.decrementAndGet();
            exchange.close();
        }
    }

    private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        URI uri = URI.create(upstream + exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2))
                .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> request.header(name, value));
            }
        });
        // The client signed the Host it connected to (this proxy): the server must see the same.
        request.header("Host", exchange.getRequestHeaders().getFirst("Host"));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        if (body == null || body.length == 0) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
