package io.github.boundedupload.testsupport.internal;

import io.github.boundedupload.testsupport.S3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code scripts/test-services.sh}, which installs LocalStack, versitygw and Toxiproxy into a cache directory and
 * runs them on this host, for machines without a Docker engine. Changes when the way this host's services are started
 * and stopped changes.
 *
 * <p>Every JVM that uses the services holds a shared lock on a file next to the script's pid files for as long as it
 * runs. The JVM that started the services stops them at exit, but only when it can take that lock exclusively: a
 * service another JVM (another module's tests, another build on the machine) still uses is left running.
 */
public final class ServiceScript {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceScript.class);
    private static final String SCRIPT = "scripts/test-services.sh";
    /** A first start installs LocalStack (1-2 minutes) and builds Toxiproxy (about a minute). */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(15);

    private final Path script;
    private final Path cache;
    private final int localstackPort;
    private final int versitygwPort;
    private final int toxiproxyPort;
    private final S3Server server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ServiceScript(Path script) {
        this.script = script;
        Map<String, String> settings = settings(script);
        this.cache = Path.of(settings.getOrDefault("cache", ""));
        this.localstackPort = Integer.parseInt(settings.getOrDefault("localstack-port", ""));
        this.versitygwPort = Integer.parseInt(settings.getOrDefault("versitygw-port", ""));
        this.toxiproxyPort = Integer.parseInt(settings.getOrDefault("toxiproxy-port", ""));
        this.server = S3Server.selected();
    }

    /**
     * The cache directory and the ports, as the script itself works them out (from {@code BOUNDED_UPLOAD_CACHE} and
     * {@code BOUNDED_UPLOAD_*_PORT}, else its defaults): one place decides them, so that the lock and log files are
     * where the script keeps its services, and the tests talk to the ports it starts them on.
     */
    private static Map<String, String> settings(Path script) {
        try {
            Process process = new ProcessBuilder(List.of("bash", script.toString(), "settings"))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IllegalStateException(SCRIPT + " settings failed: " + out);
            }
            Map<String, String> settings = new HashMap<>();
            out.lines().map(line -> line.split("=", 2)).filter(pair -> pair.length == 2)
                    .forEach(pair -> settings.put(pair[0], pair[1]));
            if (!settings.keySet().containsAll(List.of("cache", "localstack-port", "versitygw-port",
                    "toxiproxy-port"))) {
                throw new IllegalStateException(SCRIPT + " settings did not name every setting: " + out);
            }
            return settings;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + SCRIPT + " for its settings", e);
        }
    }

    /** The script of the repository that contains the working directory, found by walking up from it. */
    public static @Nullable ServiceScript find() {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(SCRIPT);
            if (Files.isRegularFile(candidate)) {
                return new ServiceScript(candidate);
            }
        }
        return null;
    }

    /** Uses the services when they answer, starts them otherwise; the tests talk to the {@link S3Server#selected()}. */
    public Services start() {
        URI s3 = URI.create("http://127.0.0.1:" + (server == S3Server.VERSITYGW ? versitygwPort : localstackPort));
        URI toxiproxy = URI.create("http://127.0.0.1:" + toxiproxyPort);
        FileLock users = holdLock(lockFile("users"), true);
        boolean s3ServersWereUp;
        boolean toxiproxyWasUp;
        // One JVM at a time checks and starts, so that two test JVMs never start two servers on one port.
        FileLock starting = holdLock(lockFile("start"), false);
        try {
            s3ServersWereUp = localstackUp() && versitygwUp();
            toxiproxyWasUp = toxiproxyUp();
            if (s3ServersWereUp && toxiproxyWasUp) {
                return new HostServices(s3, toxiproxy, server.id() + " (and the other S3 server) and Toxiproxy"
                        + " already running on this host", () -> { });
            }
            run("start", START_TIMEOUT);
            if (!localstackUp() || !versitygwUp() || !toxiproxyUp()) {
                throw new IllegalStateException(SCRIPT + " start finished, but the services do not answer; see "
                        + log());
            }
        } finally {
            close(starting);
        }
        // Stop at exit only what this JVM alone brought up: a service that was already running belongs to someone else.
        boolean ours = !s3ServersWereUp && !toxiproxyWasUp;
        String how = server.id() + " (and the other S3 server) and Toxiproxy started on this host by " + SCRIPT
                + (ours ? ", stopped at JVM exit" : " (one was already running: left running at exit)");
        return new HostServices(s3, toxiproxy, how, ours ? () -> stopUnlessInUse(users) : () -> { });
    }

    private boolean localstackUp() {
        String health = get(URI.create("http://127.0.0.1:" + localstackPort + "/_localstack/health"));
        return health != null && health.matches("(?s).*\"s3\": *\"(available|running)\".*");
    }

    /** The gateway refuses an unsigned request with 403 once it serves. */
    private boolean versitygwUp() {
        HttpResponse<String> response = send(URI.create("http://127.0.0.1:" + versitygwPort + "/"));
        return response != null && response.statusCode() == 403;
    }

    private boolean toxiproxyUp() {
        return get(URI.create("http://127.0.0.1:" + toxiproxyPort + "/version")) != null;
    }

    private @Nullable String get(URI uri) {
        HttpResponse<String> response = send(uri);
        return response != null && response.statusCode() == 200 ? response.body() : null;
    }

    /** The answer to a GET, or {@code null} when nothing answers. */
    private @Nullable HttpResponse<String> send(URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The project the script belongs to: the parent of its {@code scripts} directory. */
    private Path projectRoot() {
        Path scripts = Objects.requireNonNull(script.toAbsolutePath().getParent(), "the script's directory");
        return Objects.requireNonNull(scripts.getParent(), "the project directory");
    }

    private Path log() {
        return cache.resolve("run").resolve("test-services-java.log");
    }

    private void run(String command, Duration timeout) {
        try {
            Files.createDirectories(log().getParent());
            long logged = Files.exists(log()) ? Files.size(log()) : 0; // where this run's output starts
            LOG.info("running {} {} (output in {})", script, command, log());
            Process process = new ProcessBuilder(List.of("bash", script.toString(), command))
                    .directory(projectRoot().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
                    .start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(SCRIPT + " " + command + " did not finish within " + timeout
                        + "; see " + log());
            }
            if (process.exitValue() != 0) {
                List<String> missing = missingPrerequisites(log(), logged);
                throw new IllegalStateException(missing.isEmpty()
                        ? SCRIPT + " " + command + " failed with exit code " + process.exitValue() + ":\n" + tail(log())
                        : String.join("\n", missing));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + SCRIPT + " " + command, e);
        }
    }

    /** The script's one line for each missing prerequisite (which names how to install it), from this run's output. */
    private static List<String> missingPrerequisites(Path file, long from) {
        try (FileChannel log = FileChannel.open(file, StandardOpenOption.READ)) {
            String output = new String(Channels.newInputStream(log.position(from)).readAllBytes(),
                    StandardCharsets.UTF_8);
            return output.lines().filter(line -> line.contains("] missing: ")).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private Path lockFile(String name) {
        return cache.resolve("run").resolve("test-services." + name + ".lock");
    }

    /** Waits for a lock on a file; the OS releases it when this JVM exits, even if it dies. */
    private static FileLock holdLock(Path file, boolean shared) {
        try {
            Files.createDirectories(file.getParent());
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.READ);
            return channel.lock(0, Long.MAX_VALUE, shared);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void close(FileLock lock) {
        try {
            lock.channel().close(); // releases the lock too
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void stopUnlessInUse(FileLock users) {
        try (FileChannel channel = users.channel()) {
            users.release();
            FileLock alone = channel.tryLock(0, Long.MAX_VALUE, false);
            if (alone == null) {
                LOG.info("leaving the test services running: another JVM still uses them");
                return;
            }
            try {
                run("stop", Duration.ofMinutes(1));
            } finally {
                alone.release();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not stop the test services", e);
        }
    }
}
