package io.github.boundedupload.s3;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A loopback HTTP server that answers every request as S3 answers a caller without permission: 403 with S3's
 * {@code AccessDenied} error document. LocalStack (community) enforces neither IAM nor bucket policies (a Deny-all
 * PutObject bucket policy still lets the PUT through, checked with LocalStack 2026.3.0), so this is how a real SDK
 * client meets a real 403 in these tests.
 */
final class DenyingS3 implements AutoCloseable {

    private static final byte[] ERROR = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>"
            + "<Message>Access Denied</Message><RequestId>STUB0REQUEST0ID</RequestId><HostId>stub</HostId></Error>")
            .getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;

    DenyingS3() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.transferTo(OutputStream.nullOutputStream());
            }
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            exchange.getResponseHeaders().add("x-amz-request-id", "STUB0REQUEST0ID");
            if ("HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(403, -1);
            } else {
                exchange.sendResponseHeaders(403, ERROR.length);
                exchange.getResponseBody().write(ERROR);
            }
            exchange.close();
        });
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
