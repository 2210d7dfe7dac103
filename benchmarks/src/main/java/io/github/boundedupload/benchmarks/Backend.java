package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.S3TestServices;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Where a strategy's clients send their requests. Every strategy of a scenario gets its clients from the same
 * backend with the same connection pool size, so that only the way the uploads are driven differs. Changes when where
 * the strategies' clients send their requests, or how those clients are built, changes.
 */
interface Backend {

    /**
     * A blocking client (the SDK's default HTTP client, Apache 5) with a pool of {@code connections}, and the SDK's
     * default socket timeout; the system property {@code bench.socketTimeoutMs} sets another (0: none), for the
     * experiment in docs/performance.md that shows what a timed socket read costs a virtual thread.
     *
     * @param connections the pool size
     * @return a new client; the caller closes it
     */
    S3Client syncClient(int connections);

    /**
     * A non-blocking client (Netty) with a pool of {@code connections}.
     *
     * @param connections the pool size ({@code maxConcurrency})
     * @param multipart whether the SDK's own multipart support is on (for the Transfer Manager)
     * @return a new client; the caller closes it
     */
    S3AsyncClient asyncClient(int connections, boolean multipart);

    /**
     * The CRT-based non-blocking client (native HTTP stack, one upload's parts in parallel) with at most
     * {@code connections} requests in flight.
     *
     * @param connections {@code maxConcurrency}
     * @return a new client; the caller closes it
     * @throws UnsupportedOperationException for the in-process fakes: the CRT client has its own HTTP stack, which
     *         cannot be pointed at them
     */
    S3AsyncClient crtClient(int connections);

    /** The S3 server at an endpoint: its own, or a Toxiproxy proxy's in front of it. */
    static Backend s3(URI endpoint) {
        S3TestServices services = S3TestServices.get();
        return new Backend() {
            @Override
            public S3Client syncClient(int connections) {
                Apache5HttpClient.Builder http = Apache5HttpClient.builder().maxConnections(connections);
                Long socketTimeout = Long.getLong("bench.socketTimeoutMs");
                if (socketTimeout != null) {
                    http.socketTimeout(Duration.ofMillis(socketTimeout));
                }
                return services.s3ClientBuilder(endpoint).httpClientBuilder(http).build();
            }

            @Override
            public S3AsyncClient asyncClient(int connections, boolean multipart) {
                return services.s3AsyncClientBuilder(endpoint)
                        .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(connections))
                        .multipartEnabled(multipart).build();
            }

            @Override
            public S3AsyncClient crtClient(int connections) {
                return services.s3CrtClientBuilder(endpoint).maxConcurrency(connections).build();
            }
        };
    }

    /** The in-process fakes: no network, no server, only the latency and the connection pool. */
    static Backend fake(FakeNetwork network) {
        return new Backend() {
            @Override
            public S3Client syncClient(int connections) {
                return new FakeS3Client(network, connections);
            }

            @Override
            public S3AsyncClient asyncClient(int connections, boolean multipart) {
                return new FakeS3AsyncClient(network, connections);
            }

            @Override
            public S3AsyncClient crtClient(int connections) {
                throw new UnsupportedOperationException("the CRT client cannot be pointed at the in-process fakes");
            }
        };
    }
}
