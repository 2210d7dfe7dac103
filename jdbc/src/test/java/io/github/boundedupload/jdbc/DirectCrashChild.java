package io.github.boundedupload.jdbc;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.direct.FileToUpload;
import io.github.boundedupload.direct.UploadGrant;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.s3.S3UploadOptions;
import io.github.boundedupload.s3.S3UploadSigner;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import javax.sql.DataSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The application {@link DirectCrashIT} kills: rounds of direct uploads, each granted, sent by "the client" (this
 * process, on the signed PUTs), then confirmed inside a database transaction that also inserts the application's rows
 * pointing to the copies. One file of each round is above the multipart threshold, so that its copy is a multipart
 * upload of copied parts. It prints where it is, one line per step, so that the test can kill it there:
 * {@code <round> granted}, {@code <round> sent <n>}, {@code <round> copied <n>}, {@code <round> confirmed},
 * {@code <round> rows-inserted}, {@code <round> committed}; and {@code done} after its last round.
 *
 * <p>Arguments: JDBC URL, S3 endpoint, access key, secret key, region, bucket, number of rounds, seed.
 */
public final class DirectCrashChild {

    /** Grants live this long, and a request started before that may run as long again. */
    static final Duration LIFETIME = Duration.ofSeconds(3);

    private DirectCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String bucket = args[5];
        int rounds = Integer.parseInt(args[6]);
        Random random = new Random(Long.parseLong(args[7]));
        DataSource database = Postgres.dataSource(url);
        S3FileUploader storage = S3FileUploader.builder(ChildArgs.s3(args), bucket).options(S3UploadOptions.builder()
                .multipartThreshold(6L * 1024 * 1024).partSize(5L * 1024 * 1024).build()).build();
        int[] current = new int[1];
        UploadListener steps = new UploadListener() {
            @Override
            public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
                say(current[0] + " copied " + upload.index());
            }
        };
        JdbcUploadJournal journal = CrashChild.journal(database, storage, "child-" + ProcessHandle.current().pid());
        ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage, CrashChild.config()
                .listener(steps).journal(journal).build());
        S3Presigner presigner = ChildArgs.presigner(args);
        S3Client client = ChildArgs.s3(args);
        DirectUploads direct = DirectUploads.builder(uploader, S3UploadSigner.builder(presigner, bucket).client(client)
                .build()).grants(JdbcGrantStore.of(journal, LIFETIME)).lifetime(LIFETIME).partsAbove(6L * 1024 * 1024)
                .partSize(5L * 1024 * 1024).build();
        HttpClient http = HttpClient.newHttpClient();
        for (int round = 0; round < rounds; round++) {
            current[0] = round;
            List<byte[]> contents = contents(random);
            List<FileToUpload> files = new ArrayList<>();
            for (int i = 0; i < contents.size(); i++) {
                files.add(FileToUpload.of("r" + round + "-file-" + i + ".bin", contents.get(i).length,
                        "application/octet-stream"));
            }
            try {
                List<UploadGrant> grants = direct.grant("alice", files);
                say(round + " granted");
                for (int i = 0; i < grants.size(); i++) {
                    UploadGrant grant = grants.get(i);
                    if (grant.signedParts().isPresent()) { // the 7 MiB file: two parts of a multipart upload
                        SignedParts parts = grant.signedParts().get();
                        for (int n = 0; n < parts.parts().size(); n++) {
                            int from = (int) (n * parts.partSize());
                            int to = (int) Math.min(contents.get(i).length, from + parts.partSize());
                            int status = send(http, parts.parts().get(n), Arrays.copyOfRange(contents.get(i), from,
                                    to));
                            say(round + " sent-part " + i + " " + (n + 1) + " " + status);
                        }
                    } else {
                        int status = send(http, grant.signedRequest().orElseThrow(), contents.get(i));
                        say(round + " sent " + i + " " + status);
                    }
                }
                List<String> ids = grants.stream().map(UploadGrant::id).toList();
                try (Connection tx = database.getConnection()) {
                    tx.setAutoCommit(false);
                    BatchResult result = JdbcUploadJournal.inTransaction(tx, () -> direct.confirm("alice", ids));
                    say(round + " confirmed");
                    try (PreparedStatement insert = tx.prepareStatement(
                            "INSERT INTO attachment (object_key) VALUES (?)")) {
                        for (StoredObject object : result.storedObjects()) {
                            insert.setString(1, object.key());
                            insert.addBatch();
                        }
                        insert.executeBatch();
                    }
                    say(round + " rows-inserted");
                    tx.commit();
                    say(round + " committed");
                }
            } catch (RuntimeException e) {
                say(round + " failed " + e);
            }
        }
        say("done");
        uploader.close();
        journal.close();
        presigner.close();
        client.close();
    }

    private static int send(HttpClient http, SignedRequest put, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(put.url())
                .method(put.method(), HttpRequest.BodyPublishers.ofByteArray(body));
        put.headers().forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Three small files and one of 7 MiB, above the 6 MiB multipart threshold. */
    private static List<byte[]> contents(Random random) {
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] bytes = new byte[1_000 + random.nextInt(100_000)];
            random.nextBytes(bytes);
            contents.add(bytes);
        }
        byte[] large = new byte[7 * 1024 * 1024];
        random.nextBytes(large);
        contents.add(large);
        return contents;
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
