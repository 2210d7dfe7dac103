package io.github.boundedupload.testsupport.internal;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * LocalStack and Toxiproxy in containers, on a network of their own; Toxiproxy reaches LocalStack by its network
 * alias, and clients reach a proxy through one of the ports the Toxiproxy container publishes (8666 to 8697).
 * Changes when the containers, or how they are wired, change.
 */
public final class ContainerServices implements Services {

    /** The LocalStack image; override with {@code BOUNDED_UPLOAD_LOCALSTACK_IMAGE}. */
    static final String LOCALSTACK_IMAGE = "localstack/localstack:2026.3.0";
    /** The Toxiproxy image; override with {@code BOUNDED_UPLOAD_TOXIPROXY_IMAGE}. */
    static final String TOXIPROXY_IMAGE = "ghcr.io/shopify/toxiproxy:2.12.0";
    private static final int FIRST_PROXY_PORT = 8666;
    private static final int PROXY_PORTS = 32;

    private final Network network;
    private final LocalStackContainer localstack;
    private final ToxiproxyContainer toxiproxy;
    private final BitSet usedPorts = new BitSet(PROXY_PORTS);

    private ContainerServices(Network network, LocalStackContainer localstack, ToxiproxyContainer toxiproxy) {
        this.network = network;
        this.localstack = localstack;
        this.toxiproxy = toxiproxy;
    }

    /** Whether a Docker engine answers; quick when there is plainly none. */
    public static boolean dockerAvailable() {
        Path home = Path.of(System.getProperty("user.home"));
        boolean hint = System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(home.resolve(".docker/run/docker.sock"))
                || Files.exists(home.resolve(".testcontainers.properties"));
        if (!hint) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** Starts both containers. */
    public static ContainerServices start() {
        Network network = Network.newNetwork();
        LocalStackContainer localstack = new LocalStackContainer(DockerImageName.parse(
                env("BOUNDED_UPLOAD_LOCALSTACK_IMAGE", LOCALSTACK_IMAGE)).asCompatibleSubstituteFor(
                "localstack/localstack"))
                .withServices("s3")
                .withNetwork(network)
                .withNetworkAliases("localstack");
        ToxiproxyContainer toxiproxy = new ToxiproxyContainer(DockerImageName.parse(
                env("BOUNDED_UPLOAD_TOXIPROXY_IMAGE", TOXIPROXY_IMAGE)).asCompatibleSubstituteFor("shopify/toxiproxy"))
                .withNetwork(network);
        localstack.start();
        toxiproxy.start();
        return new ContainerServices(network, localstack, toxiproxy);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    @Override
    public URI s3Endpoint() {
        return localstack.getEndpoint();
    }

    @Override
    public ToxiproxyClient toxiproxy() {
        return new ToxiproxyClient(toxiproxy.getHost(), toxiproxy.getControlPort());
    }

    @Override
    public synchronized ProxySlot proxySlot() {
        int index = usedPorts.nextClearBit(0);
        if (index >= PROXY_PORTS) {
            throw new IllegalStateException("all " + PROXY_PORTS + " published Toxiproxy ports are in use: close"
                    + " proxies when a test is done with them");
        }
        usedPorts.set(index);
        int port = FIRST_PROXY_PORT + index;
        return new ProxySlot() {
            @Override
            public String listen() {
                return "0.0.0.0:" + port;
            }

            @Override
            public String upstream() {
                return "localstack:4566";
            }

            @Override
            public URI endpoint(String actualListen) {
                return URI.create("http://" + toxiproxy.getHost() + ":" + toxiproxy.getMappedPort(port));
            }

            @Override
            public void release() {
                synchronized (ContainerServices.this) {
                    usedPorts.clear(index);
                }
            }
        };
    }

    @Override
    public String describe() {
        return "LocalStack and Toxiproxy in containers (Testcontainers)";
    }

    @Override
    public void stop() {
        toxiproxy.stop();
        localstack.stop();
        network.close();
    }
}
