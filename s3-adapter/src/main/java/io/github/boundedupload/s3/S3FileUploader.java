package io.github.boundedupload.s3;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.internal.Failures;
import io.github.boundedupload.s3.internal.Listing;
import io.github.boundedupload.s3.internal.Removal;
import io.github.boundedupload.s3.internal.Settings;
import io.github.boundedupload.s3.internal.SyncOps;
import io.github.boundedupload.s3.internal.Transfer;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.ListedObject;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.support.Causes;
import io.github.boundedupload.support.Threads;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A {@link FileUploader} on the blocking {@link S3Client} the application already has: each upload runs on the
 * calling thread (the uploader's), one PutObject up to the multipart threshold, a multipart upload above it with up
 * to {@link S3UploadOptions#partsInFlight()} parts sent at once, each on a thread of its own (virtual on Java 21 and
 * later, else a daemon thread; never a pool) while the calling thread waits. With {@code partsInFlight(1)} parts go
 * one after another on the calling thread, and the uploader starts no threads. It never closes the client. Changes when
 * what the blocking S3 storage offers its callers changes.
 *
 * <p>Interrupting the calling thread stops the upload (the core interrupts on timeout and cancel); a multipart
 * upload is then aborted before {@code upload} returns. At most {@link S3UploadOptions#maxConcurrency()} requests
 * run at once: give the client at least as many connections ({@code ApacheHttpClient.builder().maxConnections(n)},
 * default 50), and threads beyond that wait here, for as long as their upload may take, instead of failing in the
 * client's pool after its connection acquisition timeout.
 *
 * <pre>{@code
 * S3Client s3 = S3Client.create();                         // the application's client
 * FileUploader storage = S3FileUploader.builder(s3, "my-bucket").build();
 * ConcurrentAttachmentUploader uploader = ConcurrentAttachmentUploader.create(storage,
 *         UploaderConfig.builder().keyStrategy(KeyStrategy.datedUuid("attachments")).build());
 * }</pre>
 */
public final class S3FileUploader implements FileUploader {

    private final S3Client client;
    private final Settings settings;
    private final SyncOps ops;
    private final Removal removal;

    private S3FileUploader(Builder builder) {
        this.client = builder.client;
        S3UploadOptions options = builder.options;
        this.settings = new Settings(builder.bucket, options, options.location().resolver(builder.bucket,
                client.utilities(), client.serviceClientConfiguration()));
        this.ops = new SyncOps(client, options.maxConcurrency(),
                options.partsInFlight() > 1 ? Threads.virtualOrDaemon("bounded-upload-s3-part-") : null);
        this.removal = new Removal(settings, ops);
    }

    /**
     * A builder for an uploader to a bucket through the given client.
     *
     * @param client the application's client; the uploader never closes it
     * @param bucket the bucket
     * @return a new builder
     */
    public static Builder builder(S3Client client, String bucket) {
        return new Builder(client, bucket);
    }

    /**
     * Stores the request's content under its key.
     *
     * @param request what to store and where
     * @return what S3 holds: key, size, ETag, version id, checksum and location
     * @throws S3UploadException when S3 refuses, cannot be reached, the content cannot be read, or the thread is
     *         interrupted (its interrupt status is then set)
     */
    @Override
    public StoredObject upload(UploadRequest request) {
        Transfer transfer = new Transfer(settings, ops, request);
        return join(await(transfer.start(), transfer));
    }

    /**
     * Waits for an upload whose parts run on threads of their own. An interrupt cancels it (its threads are
     * interrupted, its multipart upload aborted); the wait goes on until that is done, and the interrupt status is
     * set again afterwards.
     */
    private static <T> CompletableFuture<T> await(CompletableFuture<T> upload, Transfer transfer) {
        boolean interrupted = false;
        while (!upload.isDone()) {
            try {
                upload.get();
            } catch (InterruptedException e) {
                if (!interrupted) {
                    interrupted = true;
                    transfer.cancel();
                }
            } catch (ExecutionException | CancellationException e) {
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return upload;
    }

    /**
     * Deletes the object under a key, and aborts the incomplete multipart uploads of exactly that key (what a failed
     * upload may leave); a key that holds nothing is not an error.
     *
     * @param key the key
     * @throws S3UploadException when S3 refuses or cannot be reached
     */
    @Override
    public void delete(String key) {
        join(key, removal.key(key));
    }

    /**
     * Deletes an object this uploader stored: in a bucket that keeps versions, exactly the version it stored (an
     * object stored under the same key since stays); otherwise the key's object if it still has the ETag the upload
     * got ({@code If-Match}: an object another writer stored there since stays), or, where the server does not
     * implement conditional deletes, the key's object.
     *
     * @param stored what {@link #upload(UploadRequest)} returned
     * @throws S3UploadException when S3 refuses or cannot be reached
     */
    @Override
    public void delete(StoredObject stored) {
        join(stored.key(), removal.object(stored));
    }

    /**
     * The objects under a prefix, in key order (ListObjectsV2, page after page).
     *
     * @param prefix the start of the keys
     * @param after the last key of the previous page, or {@code null}
     * @param limit the most objects to return
     * @return the objects
     * @throws S3UploadException when S3 refuses or cannot be reached
     */
    @Override
    public List<ListedObject> list(String prefix, @Nullable String after, int limit) {
        try {
            return Listing.list(settings, ops, prefix, after, limit).join();
        } catch (CompletionException e) {
            Throwable cause = Causes.unwrap(e);
            throw cause instanceof RuntimeException ? (RuntimeException) cause : e;
        }
    }

    private void join(String key, CompletableFuture<?> deleted) {
        try {
            deleted.join();
        } catch (CompletionException e) {
            throw Failures.delete(settings, key, e);
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join(); // already complete
        } catch (CompletionException e) {
            Throwable cause = Causes.unwrap(e);
            if (Failures.interrupted(cause)) {
                Thread.currentThread().interrupt(); // whatever the SDK did with it, the caller learns of it
            }
            throw cause instanceof RuntimeException ? (RuntimeException) cause : e;
        }
    }

    /**
     * The bucket objects are stored in.
     *
     * @return the bucket name
     */
    public String bucket() {
        return settings.bucket();
    }

    /**
     * The options objects are stored with.
     *
     * @return the options
     */
    public S3UploadOptions options() {
        return settings.options();
    }

    @Override
    public String toString() {
        return "S3FileUploader[s3://" + settings.bucket() + "]";
    }

    /** Builds an {@link S3FileUploader}. Not thread-safe. */
    public static final class Builder {
        private final S3Client client;
        private final String bucket;
        private S3UploadOptions options = S3UploadOptions.defaults();

        private Builder(S3Client client, String bucket) {
            this.client = Objects.requireNonNull(client, "client");
            this.bucket = Objects.requireNonNull(bucket, "bucket");
            if (bucket.isBlank()) {
                throw new IllegalArgumentException("bucket is blank");
            }
        }

        /**
         * Sets how objects are stored.
         *
         * @param options the options; {@link S3UploadOptions#defaults()} by default
         * @return this builder
         */
        public Builder options(S3UploadOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Builds the uploader.
         *
         * @return a new uploader
         */
        public S3FileUploader build() {
            return new S3FileUploader(this);
        }
    }
}
