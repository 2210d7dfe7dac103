package io.github.boundedupload.jdbc;

import static org.awaitility.Awaitility.await;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The instance {@link DeadInstanceRecoveryIT} kills, on the journal's and the uploader's default settings: it starts
 * removing a batch of {@code count} objects that nobody keeps (a compensation, one delete after another, the storage
 * 500 ms away), and while that runs it starts a request's batch (in a transaction, with an attachment whose content
 * never ends) and accepts one deferred upload; it prints {@code compensating} once its compensation runs,
 * {@code batch-stored <key>} for each of the batch's objects stored, and {@code uploading <key>} when the deferred
 * upload's PUT starts. Then it waits to be killed.
 *
 * <p>Arguments: JDBC URL, S3 endpoint (the slow proxy), access key, secret key, region, bucket, instance name, number
 * of keys of the compensation, seed of the image.
 */
public final class DeadInstanceChild {

    private DeadInstanceChild() {
    }

    public static void main(String[] args) throws Exception {
        DataSource database = Postgres.dataSource(args[0]);
        S3Client s3 = ChildArgs.s3(args);
        String instance = args[6];
        int count = Integer.parseInt(args[7]);
        long seed = Long.parseLong(args[8]);
        S3FileUploader storage = S3FileUploader.builder(s3, args[5]).build();
        JdbcUploadJournal journal = journal(database, storage, instance);
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder()
                .journal(journal).listener(new UploadListener() {
                    @Override
                    public void uploadStarted(UploadEvent upload, Duration queued) {
                        if (!upload.key().startsWith(DeadInstanceRecoveryIT.MID_BATCH)) {
                            say("uploading " + upload.key());
                        }
                    }

                    @Override
                    public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                        if (upload.key().startsWith(DeadInstanceRecoveryIT.MID_BATCH)) {
                            say("batch-stored " + upload.key());
                        }
                    }
                }).build());
        DeferredUploads deferred = DeferredUploads.builder(journal, uploader).build();

        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(DeadInstanceRecoveryIT.COMPENSATED + i);
        }
        journal.begin(new BatchEvent(uploader.name(), 1, count), keys, Duration.ofMinutes(30)).settled(false);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> compensationRuns(database));
        say("compensating");
        Thread request = new Thread(() -> midBatch(database, uploader, seed), "request");
        request.setDaemon(true);
        request.start();
        deferred.submit(List.of(Attachment.of("product.jpg", DeferredChild.image(seed, 0))));
        Thread.currentThread().join(); // until the test kills this process
    }

    /**
     * A request's batch, in its transaction, that is still running when the process is killed: three attachments that
     * are stored, and one whose content never ends.
     */
    private static void midBatch(DataSource database, ConcurrentAttachmentUploader uploader, long seed) {
        List<Attachment> files = new ArrayList<>();
        for (int i = 0; i < DeadInstanceRecoveryIT.MID_BATCH_STORED; i++) {
            files.add(Attachment.builder("photo-" + i + ".jpg", AttachmentContent.ofBytes(DeferredChild.image(seed,
                    10 + i))).key(DeadInstanceRecoveryIT.MID_BATCH + i).build());
        }
        CountDownLatch never = new CountDownLatch(1);
        files.add(Attachment.builder("endless.bin", AttachmentContent.ofStream(() -> new InputStream() {
            @Override
            public int read() throws IOException {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException("interrupted");
                }
                return -1;
            }
        }, 1_000)).key(DeadInstanceRecoveryIT.MID_BATCH + "endless").build());
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(files));
            tx.commit();
        } catch (Exception e) {
            say("batch failed " + e);
        }
    }

    /** Every instance of the test, this one and the ones that recover: the defaults, as an application has them. */
    static JdbcUploadJournal journal(DataSource database, S3FileUploader storage, String instance) {
        return JdbcUploadJournal.builder(database, storage).instanceName(instance).createTables(true).build();
    }

    private static boolean compensationRuns(DataSource database) throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM bounded_upload_task WHERE task_name ="
                        + " 'bounded-upload-compensation' AND picked")) {
            r.next();
            return r.getInt(1) > 0;
        }
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
