package io.github.boundedupload.testsupport;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.boundedupload.testsupport.internal.ContainerServices;
import io.github.boundedupload.testsupport.internal.HostServices;
import io.github.boundedupload.testsupport.internal.ServiceScript;
import io.github.boundedupload.testsupport.internal.Services;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.S3CrtAsyncClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The real S3 server ({@link S3Server#selected()}: LocalStack, or versitygw) and Toxiproxy that integration tests run
 * against, found or started once per JVM. Changes when a way of finding or starting them changes. The ways, in order:
 *
 * <ol>
 *   <li>from environment variables, when {@code BOUNDED_UPLOAD_S3_ENDPOINT} is set (and
 *       {@code BOUNDED_UPLOAD_TOXIPROXY_URL} for tests that need Toxiproxy);</li>
 *   <li>else with Testcontainers, when a Docker engine answers (LocalStack only);</li>
 *   <li>else with {@code scripts/test-services.sh start} from the repository (found by walking up from the working
 *       directory), which installs and runs both on this host. Services this JVM started are stopped when it exits,
 *       unless another JVM still uses them.</li>
 * </ol>
 *
 * {@code BOUNDED_UPLOAD_TEST_SERVICES=environment|testcontainers|script} forces one way.
 *
 * <pre>{@code
 * static final S3TestServices services = S3TestServices.get();
 * static TestBucket bucket;
 * @BeforeAll static void bucket() { bucket = services.createBucket("my-test"); }
 * @AfterAll static void cleanUp() { bucket.close(); }
 * }</pre>
 */
public final class S3TestServices {

    /** The environment variable with the S3 endpoint of services that are already running. */
    public static final String S3_ENDPOINT_VARIABLE = "BOUNDED_UPLOAD_S3_ENDPOINT";
    /** The environment variable with the Toxiproxy API URL of services that are already running. */
    public static final String TOXIPROXY_URL_VARIABLE = "BOUNDED_UPLOAD_TOXIPROXY_URL";
    /** The environment variable that forces how services are found. */
    public static final String MODE_VARIABLE = "BOUNDED_UPLOAD_TEST_SERVICES";

    private static final Logger LOG = LoggerFactory.getLogger(S3TestServices.class);
    private static final Region REGION = Region.US_EAST_1;
    /**
     * The access key of the test clients: versitygw's root user as scripts/test-services.sh starts it (LocalStack
     * takes any). Distinctive, so that SecretsIT can look for it in whatever the library logs and throws.
     */
    public static final String ACCESS_KEY = "AKIAEXAMPLESECRET0001";
    /** The secret key of the test clients (see {@link #ACCESS_KEY}). */
    public static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY";
    private static final AwsCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    private static @Nullable S3TestServices instance;

    private final Services services;
    private final S3Client client;
    private final Set<TestProxy> openProxies = ConcurrentHashMap.newKeySet();
    private final AtomicInteger proxyCount = new AtomicInteger();

    private S3TestServices(Services services) {
        this.services = services;
        this.client = s3ClientBuilder(services.s3Endpoint()).build();
        Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "bounded-upload-test-services-stop"));
        LOG.info("test services: {} (S3: {} at {})", services.describe(), S3Server.selected().id(),
                services.s3Endpoint());
    }

    /**
     * The services of this JVM, found or started on first use.
     *
     * @return the services
     * @throws IllegalStateException when they can be neither found nor started
     */
    public static synchronized S3TestServices get() {
        if (instance == null) {
            instance = new S3TestServices(resolve());
        }
        return instance;
    }

    private static Services resolve() {
        String mode = System.getenv(MODE_VARIABLE);
        String endpoint = System.getenv(S3_ENDPOINT_VARIABLE);
        if ("environment".equals(mode) || mode == null && endpoint != null && !endpoint.isBlank()) {
            if (endpoint == null || endpoint.isBlank()) {
                throw new IllegalStateException(MODE_VARIABLE + "=environment needs " + S3_ENDPOINT_VARIABLE);
            }
            String toxiproxy = System.getenv(TOXIPROXY_URL_VARIABLE);
            return new HostServices(URI.create(endpoint),
                    toxiproxy == null || toxiproxy.isBlank() ? null : URI.create(toxiproxy),
                    "services given by " + S3_ENDPOINT_VARIABLE, () -> { });
        }
        // versitygw runs from the script on every machine: no container image of it is pinned and checked here.
        boolean versitygw = S3Server.selected() == S3Server.VERSITYGW;
        if ("testcontainers".equals(mode) && versitygw) {
            throw new IllegalStateException(MODE_VARIABLE + "=testcontainers serves LocalStack only; versitygw runs"
                    + " from scripts/test-services.sh (or give its endpoint in " + S3_ENDPOINT_VARIABLE + ")");
        }
        if ("testcontainers".equals(mode) || mode == null && !versitygw && ContainerServices.dockerAvailable()) {
            return ContainerServices.start();
        }
        ServiceScript script = ServiceScript.find();
        if (script == null) {
            throw new IllegalStateException("no test services: set " + S3_ENDPOINT_VARIABLE + ", run a Docker engine,"
                    + " or run the tests from within the repository (scripts/test-services.sh)");
        }
        return script.start();
    }

    /**
     * The S3 endpoint, straight to the service (no proxy).
     *
     * @return the endpoint
     */
    public URI s3Endpoint() {
        return services.s3Endpoint();
    }

    /**
     * The S3 server the tests talk to, for tests whose assertions depend on where servers differ.
     *
     * @return the server
     */
    public S3Server server() {
        return S3Server.selected();
    }

    /**
     * The region the test clients use.
     *
     * @return the region
     */
    public Region region() {
        return REGION;
    }

    /**
     * The credentials the test clients use: versitygw's root user as the script starts it; LocalStack takes any.
     *
     * @return the credentials
     */
    public AwsCredentialsProvider credentials() {
        return CREDENTIALS;
    }

    /**
     * A builder for a blocking client of an endpoint (the service's, or a proxy's), with region, credentials and
     * path-style access set.
     *
     * @param endpoint the endpoint
     * @return a new builder
     */
    public S3ClientBuilder s3ClientBuilder(URI endpoint) {
        return S3Client.builder().region(REGION).credentialsProvider(CREDENTIALS).endpointOverride(endpoint)
                .forcePathStyle(true);
    }

    /**
     * A builder for a non-blocking client of an endpoint (the service's, or a proxy's), with region, credentials and
     * path-style access set.
     *
     * @param endpoint the endpoint
     * @return a new builder
     */
    public S3AsyncClientBuilder s3AsyncClientBuilder(URI endpoint) {
        return S3AsyncClient.builder().region(REGION).credentialsProvider(CREDENTIALS).endpointOverride(endpoint)
                .forcePathStyle(true);
    }

    /**
     * A builder for the CRT-based non-blocking client (native HTTP stack, parts in parallel) of an endpoint, with
     * region, credentials and path-style access set. Building it needs {@code software.amazon.awssdk.crt:aws-crt} on
     * the class path. Over HTTPS to a loopback address (the test servers' self-signed certificate), it trusts any
     * certificate: its native TLS stack does not read the JVM's trust store.
     *
     * @param endpoint the endpoint
     * @return a new builder
     */
    public S3CrtAsyncClientBuilder s3CrtClientBuilder(URI endpoint) {
        S3CrtAsyncClientBuilder builder = S3AsyncClient.crtBuilder().region(REGION).credentialsProvider(CREDENTIALS)
                .endpointOverride(endpoint).forcePathStyle(true);
        if ("https".equals(endpoint.getScheme()) && isLoopback(endpoint)) {
            builder.httpConfiguration(http -> http.trustAllCertificatesEnabled(true));
        }
        return builder;
    }

    private static boolean isLoopback(URI endpoint) {
        try {
            return java.net.InetAddress.getByName(endpoint.getHost()).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /**
     * A blocking client straight to the service, shared; for checking what the store holds. Do not close it.
     *
     * @return the client
     */
    public S3Client s3Client() {
        return client;
    }

    /**
     * Creates a new, empty bucket; close it to delete it with everything in it. Use one per test class: LocalStack
     * slows down on buckets with tens of thousands of objects.
     *
     * @param hint a readable part of the name, such as the test class's name
     * @return the bucket
     */
    public TestBucket createBucket(String hint) {
        String clean = hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-+|-+$)", "");
        String name = "bu-" + (clean.isEmpty() ? "test" : clean.substring(0, Math.min(clean.length(), 40))) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        client.createBucket(b -> b.bucket(name));
        return new TestBucket(client, name);
    }

    /**
     * Creates a Toxiproxy proxy in front of the S3 service, listening on a free port. Add toxics to it, or disable it
     * to take S3 "down"; close it when done.
     *
     * @param hint a readable part of the proxy's name
     * @return the proxy
     */
    public TestProxy createProxy(String hint) {
        ToxiproxyClient toxiproxy = services.toxiproxy();
        Services.ProxySlot slot = services.proxySlot();
        String name = "bounded-upload-" + hint.replaceAll("[^A-Za-z0-9_-]", "_") + "-" + ProcessHandle.current().pid()
                + "-" + proxyCount.incrementAndGet();
        try {
            Proxy proxy = toxiproxy.createProxy(name, slot.listen(), slot.upstream());
            TestProxy created = new TestProxy(proxy, slot.endpoint(proxy.getListen()), () -> {
                slot.release();
            }, openProxies::remove);
            openProxies.add(created);
            return created;
        } catch (IOException e) {
            slot.release();
            throw new UncheckedIOException("could not create a Toxiproxy proxy (" + services.describe() + ")", e);
        }
    }

    /**
     * Creates a Toxiproxy proxy in front of another TCP service of this host (a database, say), listening on a free
     * port; its {@link TestProxy#endpoint()} is {@code tcp://127.0.0.1:<port>}. Only with services on this host
     * ({@code scripts/test-services.sh}, or given by environment variables): a Toxiproxy in a container cannot reach
     * this host's loopback ports.
     *
     * @param hint a readable part of the proxy's name
     * @param loopbackPort the port of the service on 127.0.0.1
     * @return the proxy
     * @throws IllegalStateException when Toxiproxy does not run on this host
     */
    public TestProxy createProxyTo(String hint, int loopbackPort) {
        if (!(services instanceof HostServices)) {
            throw new IllegalStateException("a proxy to a port of this host needs Toxiproxy on this host"
                    + " (scripts/test-services.sh), not " + services.describe());
        }
        String name = "bounded-upload-" + hint.replaceAll("[^A-Za-z0-9_-]", "_") + "-" + ProcessHandle.current().pid()
                + "-" + proxyCount.incrementAndGet();
        try {
            Proxy proxy = services.toxiproxy().createProxy(name, "127.0.0.1:0", "127.0.0.1:" + loopbackPort);
            TestProxy created = new TestProxy(proxy, URI.create("tcp://" + proxy.getListen()), () -> { },
                    openProxies::remove);
            openProxies.add(created);
            return created;
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a Toxiproxy proxy to port " + loopbackPort + " ("
                    + services.describe() + ")", e);
        }
    }

    private void shutdown() {
        for (TestProxy proxy : openProxies) {
            proxy.close();
        }
        client.close();
        services.stop();
    }

    @Override
    public String toString() {
        return "S3TestServices[" + services.describe() + ", S3 at " + services.s3Endpoint() + "]";
    }
}
