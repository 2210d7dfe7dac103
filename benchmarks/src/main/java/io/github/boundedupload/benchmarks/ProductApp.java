package io.github.boundedupload.benchmarks;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.jdbc.DeferredBatch;
import io.github.boundedupload.jdbc.DeferredUploads;
import io.github.boundedupload.jdbc.JdbcUploadJournal;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.testsupport.S3TestServices;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Source 003's product registration (a row and one image), three ways: the upload inside the request
 * ({@link Way#IN_REQUEST}), handed to {@link DeferredUploads} ({@link Way#DEFERRED}), or to a background thread as
 * {@code @Async} does ({@link Way#ASYNC}). {@link ProductRegistrations} measures them in one JVM, and runs this class's
 * {@code main} as the application it kills. Changes when the product registration, or one of its three ways, changes.
 */
final class ProductApp implements AutoCloseable {

    enum Way {
        IN_REQUEST("upload in the request (uploadAll in the transaction)"),
        DEFERRED("deferred (DeferredUploads.submit in the transaction)"),
        ASYNC("@Async (a background thread after the commit)");

        final String title;

        Way(String title) {
            this.title = title;
        }
    }

    static final int IMAGE_SIZE = 100 * 1024;

    final DataSource database;
    final S3Client s3;
    final JdbcUploadJournal journal;
    final ConcurrentAttachmentUploader uploader;
    final DeferredUploads deferred;
    /** What Spring's {@code @Async} runs on by default since Boot 2.1: a pool of 8 threads. */
    final ExecutorService async = Executors.newFixedThreadPool(8);

    ProductApp(String url, URI endpoint, String bucket, String instance) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(url);
        this.database = dataSource;
        this.s3 = S3Client.builder().endpointOverride(endpoint).forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        S3TestServices.ACCESS_KEY, S3TestServices.SECRET_KEY)))
                .build();
        S3FileUploader storage = S3FileUploader.builder(s3, bucket).build();
        this.journal = JdbcUploadJournal.builder(database, storage).instanceName(instance).createTables(true)
                .keepMargin(Duration.ofSeconds(2)).pollingInterval(Duration.ofSeconds(1))
                .heartbeatInterval(Duration.ofSeconds(1)).build();
        this.uploader = ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().journal(journal)
                .batchTimeout(Duration.ofSeconds(10)).stopTimeout(Duration.ofSeconds(1)).build());
        this.deferred = DeferredUploads.builder(journal, uploader).build();
    }

    static void createTable(DataSource database) throws SQLException {
        try (Connection c = database.getConnection(); var s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS product (id SERIAL PRIMARY KEY, name VARCHAR(200) NOT NULL,"
                    + " image_key VARCHAR(1024) NOT NULL)");
        }
    }

    static byte[] image(Random random) {
        byte[] bytes = new byte[IMAGE_SIZE];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Registers a product one way; returns when the request would answer: the key of its image. */
    String register(Way way, String name, byte[] image) throws SQLException {
        Attachment attachment = Attachment.of(name + ".jpg", image);
        try (Connection tx = database.getConnection()) {
            tx.setAutoCommit(false);
            String key;
            switch (way) {
                case IN_REQUEST -> key = JdbcUploadJournal.inTransaction(tx,
                        () -> uploader.uploadAll(List.of(attachment))).storedObjects().get(0).key();
                case DEFERRED -> {
                    DeferredBatch batch = JdbcUploadJournal.inTransaction(tx,
                            () -> deferred.submit(List.of(attachment)));
                    key = batch.keys().get(0);
                }
                default -> key = uploader.check(List.of(attachment)).get(0);
            }
            try (PreparedStatement insert = tx.prepareStatement("INSERT INTO product (name, image_key) VALUES (?, ?)")) {
                insert.setString(1, name);
                insert.setString(2, key);
                insert.executeUpdate();
            }
            tx.commit();
            if (way == Way.ASYNC) {
                Attachment keyed = attachment.toBuilder().key(key).build();
                async.execute(() -> uploader.uploadAll(List.of(keyed)));
            }
            return key;
        }
    }

    @Override
    public void close() {
        async.shutdownNow();
        uploader.close();
        journal.close();
        s3.close();
    }

    /**
     * The application killed by {@link ProductRegistrations}: registers products one way, printing
     * {@code responded <key>} after each; then waits to be killed. Arguments: way, products, JDBC URL, S3 endpoint,
     * bucket, seed.
     */
    public static void main(String[] args) throws Exception {
        Way way = Way.valueOf(args[0]);
        int products = Integer.parseInt(args[1]);
        Random random = new Random(Long.parseLong(args[5]));
        ProductApp app = new ProductApp(args[2], URI.create(args[3]), args[4], "killed-" + way);
        for (int i = 0; i < products; i++) {
            String key = app.register(way, "product-" + i, image(random));
            System.out.println("responded " + key);
            System.out.flush();
        }
        Thread.currentThread().join();
    }
}
