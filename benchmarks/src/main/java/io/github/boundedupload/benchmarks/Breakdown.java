package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * async-profiler's collapsed stacks of an upload, sorted into the parts of its path: each sample goes to the first
 * part whose pattern one of its frames matches, looking from the leaf towards the root (what the thread was doing,
 * not who asked for it); the JIT compiler's samples are set apart, since they are no cost per upload. Changes when the
 * parts of an upload's path, or how samples are sorted into them, change.
 */
final class Breakdown {

    /** A part of the path and the frames that belong to it. */
    private record Part(String name, Pattern frames) {
    }

    private static final String JIT = "the JIT compiler (not per upload)";

    /** In the order a frame is tried against them. */
    private static final List<Part> PARTS = List.of(
            part(JIT, "CompileBroker|C2Compiler|Compilation::|PhaseChaitin|Compile::"),
            part("GC", "G1|GCTaskThread|WorkerThread::run|ConcurrentGCThread"),
            part("SigV4 chunk signatures (SHA-256; plain HTTP only)", "sha256|SHA2|HmacCore|SigV4ChunkSigner"
                    + "|AwsChunkedV4|ChunkSigner"),
            part("TLS", "sun/security/ssl|com/sun/crypto/provider|GHASH|GCM|aesenc|aescrypt|ghash"),
            part("aws-chunked encoding of the body", "chunkedencoding|ChunkedEncoded|AwsChunked"),
            part("checksum, the SDK's", "awssdk/checksums|awssdk/core/internal/checksums|SdkChecksum|Crc32|CRC32C"
                    + "Checksum|ChecksumCalculating|FlexibleChecksum|http/auth/aws/internal/signer/checksums"),
            part("checksum, this library's", "boundedupload/s3/internal/Digest|boundedupload/s3/internal/Sent"),
            part("reading the file", "FileChannelImpl|ChannelInputStream|FileDispatcherImpl|UnixFileSystemProvider"
                    + "|sun/nio/fs|FileInputStream"),
            part("socket I/O", "NioSocketImpl|SocketDispatcher|SocketChannelImpl|socketWrite|socketRead|sun/nio/ch/"
                    + "Net\\.|EPoll|epoll|tcp_|__sys_"),
            part("HTTP client", "org/apache/hc|io/netty|awssdk/crt|awssdk/http/apache5|awssdk/http/nio"),
            part("SDK: marshalling, request signing, endpoints, retries, interceptors", "software/amazon/awssdk"),
            // The engine's helpers of the API and the SPI (a request's metered stream, safe text) are its too.
            part("this library: engine", "io/github/boundedupload/internal|io/github/boundedupload/(spi|support)/"
                    + "|io/github/boundedupload/[A-Z]"),
            part("this library: S3 adapter", "io/github/boundedupload/s3"),
            part("the benchmark's own (keys, batches, bucket clean-up)", "io/github/boundedupload/benchmarks"
                    + "|io/github/boundedupload/testsupport"),
            part("JDK: threads, locks, executors", "java/util/concurrent|java/lang/Thread|park|futex|"
                    + "finish_task_switch|schedule"));

    private final Map<String, Long> samples;
    private final long total;

    private Breakdown(Map<String, Long> samples, long total) {
        this.samples = samples;
        this.total = total;
    }

    private static Part part(String name, String frames) {
        return new Part(name, Pattern.compile(frames));
    }

    static Breakdown read(Path collapsed) throws IOException {
        Map<String, Long> samples = new LinkedHashMap<>();
        PARTS.forEach(part -> samples.put(part.name(), 0L));
        samples.put("other", 0L);
        long total = 0;
        for (String line : Files.readAllLines(collapsed)) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long count = Long.parseLong(line.substring(space + 1));
            String[] frames = line.substring(0, space).split(";");
            samples.merge(partOf(frames), count, Long::sum);
            total += count;
        }
        return new Breakdown(samples, total);
    }

    private static String partOf(String[] frames) {
        for (int i = frames.length - 1; i >= 0; i--) {
            for (Part part : PARTS) {
                if (part.frames().matcher(frames[i]).find()) {
                    return part.name();
                }
            }
        }
        return "other";
    }

    /**
     * The parts as a Markdown table: each one's share of the samples other than the JIT's, and that share of
     * {@code perUpload} (the measured CPU time or bytes per upload, the JIT's excluded).
     */
    String table(String what, double perUpload) {
        long counted = total - samples.get(JIT);
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "| part | share | %s |%n|---|---|---|%n",
                what));
        samples.forEach((part, count) -> {
            if (!part.equals(JIT) && count > 0) {
                table.append(String.format(Locale.ROOT, "| %s | %.1f%% | %.1f |%n", part, 100.0 * count / counted,
                        perUpload * count / counted));
            }
        });
        table.append(String.format(Locale.ROOT, "| **all** | 100%% | **%.1f** |%n", perUpload));
        if (samples.get(JIT) > 0) {
            table.append(String.format(Locale.ROOT, "| (%s: %.1f%% of all samples) | | |%n", JIT,
                    100.0 * samples.get(JIT) / total));
        }
        return table.toString();
    }
}
