package io.github.boundedupload.testsupport.internal;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;

/**
 * Services running on this host: given by environment variables, or started by {@code scripts/test-services.sh}.
 * Proxies listen on a free loopback port and forward to the S3 endpoint, which must itself be a loopback address:
 * fault and load tests never target anything else. Changes when the way services on this host are found or reached
 * changes.
 */
public final class HostServices implements Services {

    private final URI s3Endpoint;
    private final @Nullable URI toxiproxyUrl;
    private final String description;
    private final Runnable stop;

    public HostServices(URI s3Endpoint, @Nullable URI toxiproxyUrl, String description, Runnable stop) {
        this.s3Endpoint = s3Endpoint;
        this.toxiproxyUrl = toxiproxyUrl;
        this.description = description;
        this.stop = stop;
    }

    @Override
    public URI s3Endpoint() {
        return s3Endpoint;
    }

    @Override
    public ToxiproxyClient toxiproxy() {
        if (toxiproxyUrl == null) {
            throw new IllegalStateException("no Toxiproxy: " + description + " gives an S3 endpoint but no "
                    + "BOUNDED_UPLOAD_TOXIPROXY_URL");
        }
        return new ToxiproxyClient(toxiproxyUrl.getScheme(), toxiproxyUrl.getHost(), toxiproxyUrl.getPort());
    }

    @Override
    public ProxySlot proxySlot() {
        String host = s3Endpoint.getHost();
        try {
            if (!InetAddress.getByName(host).isLoopbackAddress()) {
                throw new IllegalStateException("refusing to put a fault proxy in front of " + s3Endpoint
                        + ": only loopback addresses may be targets of fault and load tests");
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot resolve " + host, e);
        }
        int port = s3Endpoint.getPort() > 0 ? s3Endpoint.getPort() : 80;
        return new ProxySlot() {
            @Override
            public String listen() {
                return "127.0.0.1:0"; // Toxiproxy picks a free port and reports it
            }

            @Override
            public String upstream() {
                return host + ":" + port;
            }

            @Override
            public URI endpoint(String actualListen) {
                return URI.create(s3Endpoint.getScheme() + "://" + actualListen); // a TCP proxy: TLS passes through
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void stop() {
        stop.run();
    }
}
