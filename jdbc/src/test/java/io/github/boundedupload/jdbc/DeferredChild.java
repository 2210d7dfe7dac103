package io.github.boundedupload.jdbc;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.s3.S3FileUploader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Random;
import javax.sql.DataSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The application {@link DeferredCrashIT} kills: product registrations (source 003), each a transaction that inserts
 * the product's row with its image key and hands the image to {@link DeferredUploads}. Prints
 * {@code accepted <batch> <key>} after each commit (the moment the response would go out), {@code heard <key> <state>}
 * for each outcome its listener hears, and {@code all-accepted} at the end; then keeps uploading until it is killed.
 *
 * <p>Arguments: JDBC URL, S3 endpoint, access key, secret key, region, bucket, number of products, seed.
 */
public final class DeferredChild {

    private DeferredChild() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String bucket = args[5];
        int products = Integer.parseInt(args[6]);
        long seed = Long.parseLong(args[7]);
        DataSource database = Postgres.dataSource(url);
        S3Client s3 = ChildArgs.s3(args);
        S3FileUploader storage = S3FileUploader.builder(s3, bucket).build();
        JdbcUploadJournal journal = CrashChild.journal(database, storage, "child-" + ProcessHandle.current().pid());
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
                CrashChild.config().journal(journal).build());
        DeferredUploads deferred = DeferredUploads.builder(journal, uploader).listener(new DeferredUploadListener() {
            @Override
            public void stored(DeferredAttachment attachment) {
                say("heard " + attachment.key() + " " + attachment.state());
            }

            @Override
            public void failed(DeferredAttachment attachment) {
                say("heard " + attachment.key() + " " + attachment.state());
            }
        }).build();
        for (int i = 0; i < products; i++) {
            int product = i;
            try (Connection tx = database.getConnection()) {
                tx.setAutoCommit(false);
                DeferredBatch batch = JdbcUploadJournal.inTransaction(tx, () -> deferred.submit(
                        List.of(Attachment.of("product-" + product + ".jpg", image(seed, product)))));
                try (PreparedStatement insert = tx.prepareStatement("INSERT INTO product (image_key) VALUES (?)")) {
                    insert.setString(1, batch.keys().get(0));
                    insert.executeUpdate();
                }
                tx.commit();
                say("accepted " + batch.id() + " " + batch.keys().get(0));
            }
        }
        say("all-accepted");
        Thread.currentThread().join(); // uploads go on in the background until the test kills this process
    }

    /** The image of product {@code i}: the test computes it again to check what the bucket holds. */
    static byte[] image(long seed, int i) {
        Random random = new Random(seed * 1_000 + i);
        byte[] bytes = new byte[20_000 + random.nextInt(80_000)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
