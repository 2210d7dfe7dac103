package io.github.boundedupload.testsupport;

import eu.rekawek.toxiproxy.Proxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Toxiproxy proxy in front of the S3 service: point a client at {@link #endpoint()}, then add toxics (latency,
 * {@code reset_peer}, {@code timeout}, ...) or {@link Proxy#disable() disable} it through {@link #toxiproxy()}.
 * Closing deletes the proxy. Changes when what a test can do with a proxy changes.
 */
public final class TestProxy implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TestProxy.class);

    private final Proxy proxy;
    private final URI endpoint;
    private final Runnable release;
    private final Consumer<TestProxy> closed;

    TestProxy(Proxy proxy, URI endpoint, Runnable release, Consumer<TestProxy> closed) {
        this.proxy = proxy;
        this.endpoint = endpoint;
        this.release = release;
        this.closed = closed;
    }

    /**
     * The endpoint clients use to go through the proxy.
     *
     * @return the endpoint
     */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * The proxy, to add and remove toxics, or to disable and enable it.
     *
     * @return the toxiproxy-java proxy
     */
    public Proxy toxiproxy() {
        return proxy;
    }

    /**
     * Removes every toxic and enables the proxy again.
     */
    public void heal() {
        try {
            for (var toxic : proxy.toxics().getAll()) {
                toxic.remove();
            }
            proxy.enable();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the proxy. */
    @Override
    public void close() {
        try {
            proxy.delete();
        } catch (IOException e) {
            LOG.warn("could not delete proxy {}", proxy.getName(), e);
        } finally {
            release.run();
            closed.accept(this);
        }
    }

    @Override
    public String toString() {
        return "TestProxy[" + proxy.getName() + " at " + endpoint + "]";
    }
}
