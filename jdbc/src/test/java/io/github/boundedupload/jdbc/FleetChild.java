package io.github.boundedupload.jdbc;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.testsupport.TestData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An instance of the application {@link PauseIT} pauses (SIGSTOP) or cuts off from its database, then kills: it runs,
 * one after another, a request batch kept in the caller's transaction with the application's rows
 * ({@code committed}), deferred uploads submitted in a transaction with the rows the test checks them by
 * ({@code deferred_expected}), a batch whose transaction rolls back, and a batch left to the journal to remove (a
 * compensation); the journal's
 * tasks (compensations, deferred uploads) run on it and on the surviving instance alike. It prints each step:
 * {@code uploading b <n>}, {@code finished b <n>} (before the keep), {@code kept b <n>} (kept, not committed),
 * {@code committed b <n>}, {@code submitted d <n>}, {@code uploading d <n>} (a deferred upload's PUT), {@code rolled
 * back r <n>}, {@code left c <n>} (a batch handed to a compensation), {@code compensating <n>} (a compensation's delete
 * on this instance).
 *
 * <p>With a step to hold at, the thread that reaches it prints {@code held <step>} and waits for a line on its standard
 * input before it goes on: the test stops the process there and resumes it, so that the pause falls exactly at that
 * step, whichever thread takes it.
 *
 * <p>Arguments: JDBC URL, S3 endpoint, access key, secret key, region, bucket, instance name, seed, step to hold at (or
 * {@code -}).
 */
public final class FleetChild {

    /** The journal's settings on every instance of the test: heartbeats every second, dead after five silent. */
    static final Duration HEARTBEAT = Duration.ofSeconds(1);
    static final Duration LIVENESS = Duration.ofSeconds(5);

    private static final AtomicReference<String> HOLD = new AtomicReference<>("-");
    private static final BufferedReader IN = new BufferedReader(new InputStreamReader(System.in,
            StandardCharsets.UTF_8));

    private FleetChild() {
    }

    public static void main(String[] args) throws Exception {
        DataSource database = Postgres.dataSource(args[0]);
        S3Client s3 = ChildArgs.s3(args);
        String instance = args[6];
        Random random = new Random(Long.parseLong(args[7]));
        HOLD.set(args[8]);
        FileUploader storage = new SayingDeletes(S3FileUploader.builder(s3, args[5]).options(S3UploadOptions
                .builder().multipartThreshold(6L * 1024 * 1024).partSize(5L * 1024 * 1024).build()).build());
        JdbcUploadJournal journal = journal(database, storage, instance);
        int[] batch = new int[1];
        int[] deferredUpload = new int[1];
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, config()
                .journal(journal).listener(new UploadListener() {
                    @Override
                    public void uploadStarted(UploadEvent upload, Duration queued) {
                        String name = upload.attachment().fileName();
                        if (name.startsWith("b") && upload.index() == 0) {
                            step("uploading b " + batch[0]);
                        } else if (name.startsWith("d")) {
                            step("uploading d " + deferredUpload[0]++);
                        }
                    }

                    @Override
                    public void batchFinished(BatchEvent finished, BatchResult result, Duration took) {
                        if (result.results().get(0).attachment().fileName().startsWith("b")) {
                            step("finished b " + batch[0]);
                        }
                    }
                }).build());
        DeferredUploads deferred = DeferredUploads.builder(journal, uploader).build();
        for (int i = 0; ; i++) {
            switch (i % 4) {
                case 0 -> {
                    batch[0] = i / 4;
                    keptBatch(database, uploader, batch[0], random);
                }
                case 1 -> submitted(database, deferred, i / 4, random);
                case 2 -> rolledBack(database, uploader, i / 4, random);
                default -> compensated(journal, storage, uploader.name(), i / 4, random);
            }
        }
    }

    /** Every instance of the test: short heartbeats and liveness, a fast recovery. */
    static JdbcUploadJournal journal(DataSource database, FileUploader storage, String instance) {
        return JdbcUploadJournal.builder(database, storage).instanceName(instance).createTables(true)
                .heartbeatInterval(HEARTBEAT).livenessTimeout(LIVENESS).pollingInterval(Duration.ofMillis(500))
                .retryPauses(Duration.ofMillis(200), Duration.ofSeconds(2)).build();
    }

    /** A batch may run two minutes: its lease is far longer than the test, so only liveness recovers it. */
    static UploaderConfig.Builder config() {
        return UploaderConfig.builder().batchTimeout(Duration.ofMinutes(2)).stopTimeout(Duration.ofSeconds(2));
    }

    /** The application's tables the test checks the bucket against. */
    static void createTables(DataSource database) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE committed (object_key VARCHAR(1024) PRIMARY KEY, sha256 CHAR(64) NOT NULL)");
            s.execute("CREATE TABLE deferred_expected (object_key VARCHAR(1024) PRIMARY KEY,"
                    + " sha256 CHAR(64) NOT NULL)");
        }
    }

    private static void keptBatch(DataSource database, ConcurrentAttachmentUploader uploader, int n, Random random) {
        List<Attachment> files = files("b" + n, 3 + random.nextInt(2), n % 3 == 1, random);
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            BatchResult result = JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(files));
            step("kept b " + n);
            insert(tx, "committed", result.storedObjects(), files);
            tx.commit();
            step("committed b " + n);
        } catch (SQLException | RuntimeException e) {
            failed("b " + n, e);
        }
    }

    private static void submitted(DataSource database, DeferredUploads deferred, int n, Random random) {
        List<Attachment> files = files("d" + n, 2, false, random);
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            DeferredBatch accepted = JdbcUploadJournal.inTransaction(tx, () -> deferred.submit(files));
            try (PreparedStatement insert = tx.prepareStatement("INSERT INTO deferred_expected (object_key, sha256)"
                    + " VALUES (?, ?)")) {
                for (int i = 0; i < files.size(); i++) {
                    insert.setString(1, accepted.keys().get(i));
                    insert.setString(2, sha256(files.get(i)));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            tx.commit();
            step("submitted d " + n);
        } catch (SQLException | RuntimeException e) {
            failed("d " + n, e);
        }
    }

    private static void rolledBack(DataSource database, ConcurrentAttachmentUploader uploader, int n,
            Random random) {
        List<Attachment> files = files("r" + n, 2 + random.nextInt(2), false, random);
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(files));
            tx.rollback();
            step("rolled back r " + n);
        } catch (SQLException | RuntimeException e) {
            failed("r " + n, e);
        }
    }

    /**
     * A batch that keeps nothing and whose objects the uploader could not delete: the journal removes them, in a
     * compensation task that any instance may run.
     */
    private static void compensated(JdbcUploadJournal journal, FileUploader storage, String uploader, int n,
            Random random) {
        List<Attachment> files = files("c" + n, 3, false, random);
        List<String> keys = files.stream().map(f -> "left/" + journal.instanceName() + "/" + f.fileName()).toList();
        try {
            UploadJournal.Entry entry = journal.begin(new BatchEvent(uploader, 1_000 + n, files.size()), keys,
                    Duration.ofMinutes(2));
            for (int i = 0; i < files.size() && entry.writing(keys.get(i)); i++) { // as the uploader asks
                storage.upload(UploadRequest.of(keys.get(i), files.get(i)));
            }
            entry.settled(false);
            say("left c " + n);
        } catch (IOException | RuntimeException e) {
            failed("c " + n, e);
        }
    }

    private static void insert(Connection tx, String table, List<StoredObject> stored, List<Attachment> files)
            throws SQLException {
        try (PreparedStatement insert = tx.prepareStatement("INSERT INTO " + table + " (object_key, sha256)"
                + " VALUES (?, ?)")) {
            for (StoredObject object : stored) {
                Attachment file = files.stream().filter(f -> object.key().endsWith(f.fileName())).findFirst()
                        .orElseThrow();
                insert.setString(1, object.key());
                insert.setString(2, sha256(file));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** Files named {@code <prefix>-<i>.bin} of 10 to 150 KB; with {@code large}, the last is a 6.5 MiB multipart one. */
    private static List<Attachment> files(String prefix, int count, boolean large, Random random) {
        List<Attachment> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int size = large && i == count - 1 ? 6_815_744 : 10_000 + random.nextInt(140_000);
            files.add(Attachment.of(prefix + "-" + i + ".bin", TestData.bytes(random.nextLong(), size)));
        }
        return files;
    }

    private static String sha256(Attachment file) {
        return TestData.sha256(file.content().bytes().map(b -> {
            byte[] copy = new byte[b.remaining()];
            b.duplicate().get(copy);
            return copy;
        }).orElseThrow());
    }

    /**
     * A request failed (its instance was taken for dead, or cannot reach its database): said, and the next one comes
     * a moment later, as from clients, not in a loop as fast as the failures come.
     */
    private static void failed(String what, Exception e) {
        say("failed " + what + " " + e);
        try {
            Thread.sleep(200);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Says a step; when it is the one to hold at (once), waits for the test to resume this process. */
    private static void step(String step) {
        String held = HOLD.get();
        if (!held.equals(step) || !HOLD.compareAndSet(held, "-")) {
            say(step);
            return;
        }
        say("held " + step);
        try {
            IN.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** The storage, saying each delete of a compensation (the journal's threads) as a step. */
    private static final class SayingDeletes implements FileUploader {
        private final FileUploader storage;
        private int deletes;

        SayingDeletes(FileUploader storage) {
            this.storage = storage;
        }

        @Override
        public StoredObject upload(UploadRequest request) throws IOException {
            return storage.upload(request);
        }

        @Override
        public void delete(String key) throws IOException {
            if (Thread.currentThread().getName().startsWith("db-scheduler")) {
                int n;
                synchronized (this) {
                    n = deletes++;
                }
                step("compensating " + n);
            }
            storage.delete(key);
        }

        @Override
        public void delete(StoredObject stored) throws IOException {
            storage.delete(stored);
        }
    }
}
