package io.github.boundedupload.testsupport.internal;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.net.URI;

/**
 * Where the test services are, however they were found or started. Changes when what tests need to know of the services
 * changes.
 */
public interface Services {

    /** The S3 endpoint, straight to the service. */
    URI s3Endpoint();

    /** The Toxiproxy API. */
    ToxiproxyClient toxiproxy();

    /** Where the next proxy listens and what it forwards to. */
    ProxySlot proxySlot();

    /** How the services were found, for messages. */
    String describe();

    /** Stops what this JVM started; called once, at JVM exit. */
    void stop();

    /** A proxy's listen address and upstream, and how clients reach it. */
    interface ProxySlot {
        /** The address Toxiproxy listens on, as Toxiproxy takes it ({@code host:port}). */
        String listen();

        /** What the proxy forwards to ({@code host:port}). */
        String upstream();

        /** The endpoint clients use, given the address Toxiproxy reports it listens on. */
        URI endpoint(String actualListen);

        /** Gives the slot back once its proxy is deleted. */
        void release();
    }
}
