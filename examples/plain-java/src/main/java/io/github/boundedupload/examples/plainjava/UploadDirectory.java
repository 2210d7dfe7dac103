package io.github.boundedupload.examples.plainjava;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

/**
 * Uploads every regular file of a directory concurrently, to a directory on the local disk or to an S3 bucket,
 * printing a progress line and a summary. Changes when the command's arguments, its storages or what it prints change.
 *
 * <pre>
 * UploadDirectory &lt;directory&gt; [--to &lt;storage directory&gt;]
 * UploadDirectory &lt;directory&gt; --bucket &lt;bucket&gt; [--region &lt;region&gt;] [--s3-endpoint &lt;url&gt;]
 * </pre>
 *
 * For S3, credentials come from the AWS SDK's default chain (environment variables {@code AWS_ACCESS_KEY_ID} and
 * {@code AWS_SECRET_ACCESS_KEY}, system properties, the profile, ...), and so does the region when
 * {@code --region} is not given.
 */
public final class UploadDirectory {

    private static final String USAGE = "usage: UploadDirectory <directory> [--to <storage directory>]\n"
            + "       UploadDirectory <directory> --bucket <bucket> [--region <region>] [--s3-endpoint <url>]";

    private UploadDirectory() {
    }

    /**
     * Runs the example; exits with 1 when a file could not be stored, 2 on wrong arguments.
     *
     * @param args the directory to upload, then options
     * @throws IOException when the directory cannot be listed
     */
    public static void main(String[] args) throws IOException {
        int status = run(args, System.out);
        if (status != 0) {
            System.exit(status); // only then: under `mvn exec:java` this would end Maven too
        }
    }

    /**
     * Uploads the directory and prints the progress and the summary.
     *
     * @param args the directory to upload, then options
     * @param out where to print
     * @return 0 when every file is stored, 1 when some are not, 2 on wrong arguments
     * @throws IOException when the directory cannot be listed or the storage directory created
     */
    static int run(String[] args, PrintStream out) throws IOException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            out.println(e.getMessage() + "\n" + USAGE);
            return 2;
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(options.source)) {
            files = listing.filter(Files::isRegularFile).sorted().toList();
        }
        long totalBytes = 0;
        for (Path file : files) {
            totalBytes += Files.size(file);
        }

        Progress progress = new Progress(files.size(), totalBytes, out);
        UploaderConfig config = UploaderConfig.builder()
                .name("plain-java")
                .maxConcurrentUploadsPerBatch(8)
                .maxAttachmentsPerBatch(Math.max(1, files.size()))
                .maxQueuedUploads(Math.max(UploaderConfig.DEFAULT_MAX_QUEUED_UPLOADS, files.size()))
                .failurePolicy(FailurePolicy.COLLECT) // every file gets its own outcome
                .keyStrategy(KeyStrategy.fileName(options.source.getFileName().toString()))
                .listener(progress)
                .build();
        // Either storage: the local disk, or S3 through the adapter, which builds the client from this builder with a
        // connection pool sized to its limit on requests in flight, and closes it when it is closed (after the
        // uploader: resources close in reverse order; a null resource is skipped).
        LocalFileUploader local = options.bucket == null ? new LocalFileUploader(options.target) : null;
        BatchResult result;
        Duration took;
        try (S3AsyncFileUploader s3 = options.bucket == null ? null
                        : S3AsyncFileUploader.builder(s3Client(options), options.bucket).build();
                ConcurrentAttachmentUploader uploader = s3 != null ? ConcurrentAttachmentUploader.create(s3, config)
                        : ConcurrentAttachmentUploader.create(local, config)) {
            out.printf("Uploading %d files (%s) from %s to %s%n", files.size(), size(totalBytes), options.source,
                    s3 != null ? s3 : local);
            long started = System.nanoTime();
            result = uploader.uploadAll(files.stream().map(Attachment::of).toList());
            took = Duration.ofNanos(System.nanoTime() - started);
        }
        progress.finish();

        long stored = result.storedObjects().stream().mapToLong(StoredObject::size).sum();
        out.printf("Done: %d of %d files stored, %s in %d ms, %d failed%n", result.storedObjects().size(),
                result.size(), size(stored), took.toMillis(), result.notStored().size());
        for (UploadResult failed : result.notStored()) {
            out.printf("  FAILED %s: %s%n", failed.attachment().fileName(),
                    failed.failure().map(Throwable::getMessage).orElse("?"));
        }
        for (StoredObject object : result.storedObjects()) {
            out.printf("  %-40s %10d bytes  %s=%s%n", object.key(), object.size(),
                    object.checksumAlgorithm().orElse("checksum"), object.checksum().orElse("-"));
        }
        return result.allStored() ? 0 : 1;
    }

    /** Region and endpoint from the options when given; the SDK's own chains otherwise. */
    private static S3AsyncClientBuilder s3Client(Options options) {
        S3AsyncClientBuilder client = S3AsyncClient.builder();
        if (options.region != null) {
            client.region(Region.of(options.region));
        }
        if (options.endpoint != null) {
            // S3-compatible services such as LocalStack address buckets in the path, not in the host name.
            client.endpointOverride(options.endpoint).forcePathStyle(true);
        }
        return client;
    }

    private static String size(long bytes) {
        return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }

    /** The command line. */
    private static final class Options {
        Path source;
        Path target = Path.of("target", "uploads");
        String bucket;
        String region;
        URI endpoint;

        static Options parse(String[] args) {
            if (args.length < 1 || args[0].startsWith("--")) {
                throw new IllegalArgumentException("no directory given");
            }
            Options options = new Options();
            options.source = Path.of(args[0]);
            for (int i = 1; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                String value = args[i + 1];
                switch (args[i]) {
                    case "--to" -> options.target = Path.of(value);
                    case "--bucket" -> options.bucket = value;
                    case "--region" -> options.region = value;
                    case "--s3-endpoint" -> options.endpoint = URI.create(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (options.bucket == null && (options.region != null || options.endpoint != null)) {
                throw new IllegalArgumentException("--region and --s3-endpoint need --bucket");
            }
            return options;
        }
    }

    /** Redraws one terminal line as uploads progress. */
    private static final class Progress implements UploadListener {
        private final int files;
        private final long totalBytes;
        private final PrintStream out;
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicInteger running = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private final AtomicLong bytesDone = new AtomicLong();

        Progress(int files, long totalBytes, PrintStream out) {
            this.files = files;
            this.totalBytes = totalBytes;
            this.out = out;
        }

        @Override
        public void uploadStarted(UploadEvent upload, Duration queued) {
            running.incrementAndGet();
            redraw();
        }

        @Override
        public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
            bytesDone.addAndGet(stored.size());
            ended();
        }

        @Override
        public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
            failed.incrementAndGet();
            ended();
        }

        private void ended() {
            running.decrementAndGet();
            done.incrementAndGet();
            redraw();
        }

        private synchronized void redraw() {
            out.printf("\r[%d/%d] %s of %s, %d in flight, %d failed   ", done.get(), files, size(bytesDone.get()),
                    size(totalBytes), running.get(), failed.get());
            out.flush();
        }

        void finish() {
            out.println();
        }
    }
}
