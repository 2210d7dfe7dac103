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
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Uploads every regular file of a directory concurrently, printing a progress line and a summary.
 *
 * <pre>
 * UploadDirectory &lt;directory&gt; [--to &lt;storage directory&gt;]
 * </pre>
 */
public final class UploadDirectory {

    private UploadDirectory() {
    }

    /**
     * Runs the example.
     *
     * @param args the directory to upload, then options
     * @throws IOException when the directory cannot be listed
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: UploadDirectory <directory> [--to <storage directory>]");
            System.exit(2);
        }
        Path source = Path.of(args[0]);
        Path target = args.length >= 3 && args[1].equals("--to") ? Path.of(args[2]) : Path.of("target", "uploads");
        List<Path> files;
        try (Stream<Path> listing = Files.list(source)) {
            files = listing.filter(Files::isRegularFile).sorted().toList();
        }
        long totalBytes = 0;
        for (Path file : files) {
            totalBytes += Files.size(file);
        }
        FileUploader storage = new LocalFileUploader(target);
        System.out.printf("Uploading %d files (%s) from %s to %s%n", files.size(), size(totalBytes), source,
                storage);

        Progress progress = new Progress(files.size(), totalBytes, System.out);
        UploaderConfig config = UploaderConfig.builder()
                .name("plain-java")
                .maxConcurrentUploadsPerBatch(8)
                .maxAttachmentsPerBatch(Math.max(1, files.size()))
                .maxQueuedUploads(Math.max(UploaderConfig.DEFAULT_MAX_QUEUED_UPLOADS, files.size()))
                .failurePolicy(FailurePolicy.COLLECT) // every file gets its own outcome
                .keyStrategy(KeyStrategy.fileName(source.getFileName().toString()))
                .listener(progress)
                .build();
        long started = System.nanoTime();
        BatchResult result;
        try (ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, config)) {
            result = uploader.uploadAll(files.stream().map(Attachment::of).toList());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        progress.finish();

        long stored = result.storedObjects().stream().mapToLong(StoredObject::size).sum();
        System.out.printf("Done: %d of %d files stored, %s in %d ms, %d failed%n", result.storedObjects().size(),
                result.size(), size(stored), took.toMillis(), result.notStored().size());
        for (UploadResult failed : result.notStored()) {
            System.out.printf("  FAILED %s: %s%n", failed.attachment().fileName(),
                    failed.failure().map(Throwable::getMessage).orElse("?"));
        }
        for (StoredObject object : result.storedObjects()) {
            System.out.printf("  %-40s %10d bytes  %s=%s%n", object.key(), object.size(),
                    object.checksumAlgorithm().orElse("checksum"), object.checksum().orElse("-"));
        }
        if (!result.allStored()) {
            System.exit(1);
        }
    }

    private static String size(long bytes) {
        return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }

    /** Redraws one terminal line as uploads progress. */
    private static final class Progress implements UploadListener {
        private final int files;
        private final long totalBytes;
        private final PrintStream out;
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicInteger running = new AtomicInteger();
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
            ended();
        }

        private void ended() {
            running.decrementAndGet();
            done.incrementAndGet();
            redraw();
        }

        private synchronized void redraw() {
            out.printf("\r[%d/%d] %s of %s, %d in flight   ", done.get(), files, size(bytesDone.get()),
                    size(totalBytes), running.get());
            out.flush();
        }

        void finish() {
            out.println();
        }
    }
}
