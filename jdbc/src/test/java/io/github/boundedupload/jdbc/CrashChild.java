package io.github.boundedupload.jdbc;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.sql.DataSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The application {@link CrashIT} kills: batches of attachments (small ones and one multipart upload) uploaded inside
 * database transactions that also insert the application's rows pointing to the objects. It prints where it is, one
 * line per step, so that the test can kill it at that step:
 * {@code <batch> begin}, {@code <batch> uploaded <n>}, {@code <batch> part}, {@code <batch> uploads-done},
 * {@code <batch> rows-inserted}, {@code <batch> committed}; and {@code done} after its last batch.
 *
 * <p>Arguments: JDBC URL, S3 endpoint, access key, secret key, region, bucket, number of batches, seed.
 */
public final class CrashChild {

    private CrashChild() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String bucket = args[5];
        int batches = Integer.parseInt(args[6]);
        Random random = new Random(Long.parseLong(args[7]));
        DataSource database = Postgres.dataSource(url);
        S3Client s3 = ChildArgs.s3(args);
        S3FileUploader storage = S3FileUploader.builder(s3, bucket).options(S3UploadOptions.builder()
                .multipartThreshold(6L * 1024 * 1024).partSize(5L * 1024 * 1024).build()).build();
        int[] current = new int[1];
        boolean[] partSaid = new boolean[1];
        UploadListener steps = new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                say(current[0] + " uploaded " + upload.index());
            }

            @Override
            public void bytesSent(UploadEvent upload, long bytesSoFar) {
                if (bytesSoFar > 5L * 1024 * 1024 && !partSaid[0]) {
                    partSaid[0] = true;
                    say(current[0] + " part");
                }
            }
        };
        JdbcUploadJournal journal = journal(database, storage, "child-" + ProcessHandle.current().pid());
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, config()
                .listener(steps).journal(journal).build());
        for (int batch = 0; batch < batches; batch++) {
            current[0] = batch;
            partSaid[0] = false;
            List<Attachment> attachments = attachments(batch, random);
            say(batch + " begin");
            try (Connection tx = database.getConnection()) {
                tx.setAutoCommit(false);
                BatchResult result = JdbcUploadJournal.inTransaction(tx, () -> uploader.uploadAll(attachments));
                say(batch + " uploads-done");
                try (PreparedStatement insert = tx.prepareStatement("INSERT INTO attachment (object_key) VALUES (?)")) {
                    for (StoredObject object : result.storedObjects()) {
                        insert.setString(1, object.key());
                        insert.addBatch();
                    }
                    insert.executeBatch();
                }
                say(batch + " rows-inserted");
                tx.commit();
                say(batch + " committed");
            } catch (RuntimeException e) {
                say(batch + " failed " + e);
            }
        }
        say("done");
        uploader.close();
        journal.close();
    }

    /** The journal both the child and this JVM run: short lease and heartbeats, so that recovery is quick. */
    static JdbcUploadJournal journal(DataSource database, FileUploader storage, String instance) {
        return JdbcUploadJournal.builder(database, storage).instanceName(instance).createTables(true)
                .keepMargin(Duration.ofSeconds(2)).pollingInterval(Duration.ofSeconds(1))
                .heartbeatInterval(Duration.ofSeconds(1)).retryPauses(Duration.ofMillis(200), Duration.ofSeconds(2))
                .build();
    }

    /** The child's uploader: a batch runs at most 10 s, so its lease ends 14 s after it began. */
    static UploaderConfig.Builder config() {
        return UploaderConfig.builder().batchTimeout(Duration.ofSeconds(10)).stopTimeout(Duration.ofSeconds(1));
    }

    private static List<Attachment> attachments(int batch, Random random) {
        List<Attachment> attachments = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            byte[] bytes = new byte[10_000 + random.nextInt(200_000)];
            random.nextBytes(bytes);
            attachments.add(Attachment.of("b" + batch + "-photo-" + i + ".jpg", bytes));
        }
        byte[] large = new byte[12 * 1024 * 1024];
        random.nextBytes(large);
        attachments.add(Attachment.of("b" + batch + "-video.mp4", large));
        return attachments;
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
