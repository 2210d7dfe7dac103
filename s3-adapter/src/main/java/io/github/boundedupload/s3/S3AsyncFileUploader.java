package io.github.boundedupload.s3;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.s3.internal.AsyncOps;
import io.github.boundedupload.s3.internal.Failures;
import io.github.boundedupload.s3.internal.Listing;
import io.github.boundedupload.s3.internal.Removal;
import io.github.boundedupload.s3.internal.Settings;
import io.github.boundedupload.s3.internal.Transfer;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.ListedObject;
import io.github.boundedupload.spi.UploadRequest;
import io.github.boundedupload.support.Causes;
import io.github.boundedupload.support.Threads;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

/**
 * An {@link AsyncFileUploader} on the non-blocking {@link S3AsyncClient}: {@code upload} returns at once, and an
 * upload holds no thread while it waits for S3. Cancelling its future aborts the requests in flight, aborts a
 * multipart upload, and deletes an object S3 stored just before the cancel came. Changes when what the non-blocking S3
 * storage offers its callers changes.
 *
 * <p><b>Permits and the connection pool.</b> At most {@link S3UploadOptions#maxConcurrency()} requests are in flight
 * at once; the rest wait in this uploader's queue, without a thread, for as long as their upload may take. Set it to
 * the client's pool size (Netty {@code maxConcurrency}, default 50): then a batch of thousands never waits inside the
 * client for a connection, where requests fail after its {@code connectionAcquisitionTimeout} (10 s by default).
 * {@link #builder(S3AsyncClientBuilder, String)} builds a client whose pool is that size.
 *
 * <p><b>Threads.</b> Files, byte arrays and {@link io.github.boundedupload.AttachmentContent#ofPublisher published}
 * content up to the multipart threshold are sent without a thread of ours. Reading an {@code InputStream} blocks,
 * so stream content (and published content above the threshold, read in parts) is read on the read executor: by
 * default a pool of up to {@code maxConcurrency} daemon threads ({@code bounded-upload-s3-read-N}) that exist only
 * while streams are read; supply your own with
 * {@link Builder#readExecutor(Executor)}.
 *
 * <pre>{@code
 * // the application's client, with a Netty pool of 64 connections
 * S3AsyncFileUploader storage = S3AsyncFileUploader.builder(s3AsyncClient, "my-bucket")
 *     .options(S3UploadOptions.builder().maxConcurrency(64).build())
 *     .build();
 *
 * // or a client built for the uploader, its pool matching the permits; closing the uploader closes it
 * S3AsyncFileUploader storage = S3AsyncFileUploader.builder(
 *         S3AsyncClient.builder().region(Region.EU_WEST_1), "my-bucket").build();
 * }</pre>
 */
public final class S3AsyncFileUploader implements AsyncFileUploader, AutoCloseable {

    /**
     * How long {@link #close()} waits by default for uploads that still clean up (three clean-up requests' time);
     * {@link Builder#closeTimeout(Duration)} changes it.
     */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger("io.github.boundedupload.s3");

    private final S3AsyncClient client;
    private final boolean ownsClient;
    private final Settings settings;
    private final AsyncOps ops;
    private final Removal removal;
    private final Duration closeTimeout;
    private final @Nullable ThreadPoolExecutor ownReads;
    /** The scheduler of the API call timeouts of a client built here ({@link S3CallTimeouts}), unless it had one. */
    private final @Nullable ScheduledExecutorService ownTimeouts;
    /** Uploads not yet ended, clean-up after a cancel included: {@link #close()} waits for them. */
    private final Set<CompletableFuture<?>> unfinished = ConcurrentHashMap.newKeySet();

    private S3AsyncFileUploader(Builder builder) {
        S3UploadOptions options = builder.options;
        if (builder.client != null) {
            this.client = builder.client;
            this.ownsClient = false;
            this.ownTimeouts = null;
        } else {
            S3AsyncClientBuilder clientBuilder = Objects.requireNonNull(builder.clientBuilder);
            @Nullable ScheduledExecutorService timeouts = S3CallTimeouts.giveTo(clientBuilder).orElse(null);
            try {
                this.client = clientBuilder
                        .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(options.maxConcurrency()))
                        .build();
            } catch (RuntimeException e) {
                if (timeouts != null) {
                    timeouts.shutdown();
                }
                throw e;
            }
            this.ownsClient = true;
            this.ownTimeouts = timeouts;
        }
        this.settings = new Settings(builder.bucket, options, options.location().resolver(builder.bucket,
                client.utilities(), client.serviceClientConfiguration()));
        Executor reads = builder.reads;
        if (reads == null) {
            ThreadPoolExecutor own = readPool(options.maxConcurrency());
            this.ownReads = own;
            reads = own;
        } else {
            this.ownReads = null;
        }
        this.ops = new AsyncOps(client, options.maxConcurrency(), reads);
        this.removal = new Removal(settings, ops);
        this.closeTimeout = builder.closeTimeout;
    }

    /** Threads only while streams are read: they end after 10 idle seconds; the queue holds one task per upload. */
    private static ThreadPoolExecutor readPool(int threads) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 10, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), Threads.platform("bounded-upload-s3-read-", true));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * A builder for an uploader to a bucket through the application's client.
     *
     * @param client the client; the uploader never closes it. Tell the uploader its pool size with
     *        {@link S3UploadOptions.Builder#maxConcurrency(int)}.
     * @param bucket the bucket
     * @return a new builder
     */
    public static Builder builder(S3AsyncClient client, String bucket) {
        return new Builder(Objects.requireNonNull(client, "client"), null, bucket);
    }

    /**
     * A builder for an uploader that builds its own client from the given client builder (region, endpoint,
     * credentials, ...), on a Netty connection pool of {@link S3UploadOptions#maxConcurrency()} connections, so that
     * the uploader's permits and the pool agree. The uploader owns that client: {@link #close()} closes it. The
     * client builder's HTTP client setting is replaced. Unless the client builder has a scheduled executor, the client
     * gets an {@link S3CallTimeouts#scheduler()}, which does not keep each request's cancelled timeout queued.
     *
     * @param clientBuilder the client builder
     * @param bucket the bucket
     * @return a new builder
     */
    public static Builder builder(S3AsyncClientBuilder clientBuilder, String bucket) {
        return new Builder(null, Objects.requireNonNull(clientBuilder, "clientBuilder"), bucket);
    }

    /**
     * Starts storing the request's content under its key. Returns at once. When the request's
     * {@link UploadRequest#cancellation()} completes, the upload stops, aborts its multipart upload and deletes an
     * object S3 stored just before, and only then completes its future: exceptionally when nothing is stored, so
     * that a status reported from it is true.
     *
     * @param request what to store and where
     * @return completes with what S3 holds, or exceptionally with an {@link S3UploadException}; cancelling it also
     *         stops the upload, but completes it at once, while the clean-up still runs
     */
    @Override
    public CompletableFuture<StoredObject> upload(UploadRequest request) {
        Transfer transfer = new Transfer(settings, ops, request);
        request.cancellation().thenRun(transfer::cancel);
        CompletableFuture<StoredObject> result = new CompletableFuture<>();
        result.whenComplete((stored, failure) -> {
            if (result.isCancelled()) {
                transfer.cancel();
            }
        });
        CompletableFuture<?> ended = transfer.start().handle((stored, failure) -> {
            if (failure != null) {
                result.completeExceptionally(Causes.unwrap(failure));
            } else if (!result.complete(stored)) {
                return transfer.discard(); // cancelled in the instant S3 stored it: nobody will ever see this object
            }
            return CompletableFuture.completedFuture(null);
        }).thenCompose(cleanUp -> cleanUp);
        unfinished.add(ended);
        ended.whenComplete((ignored, failure) -> unfinished.remove(ended));
        return result;
    }

    /**
     * Starts deleting the object under a key, and aborting the incomplete multipart uploads of exactly that key (what
     * a failed upload may leave); a key that holds nothing is not an error.
     *
     * @param key the key
     * @return completes when the object is gone, or exceptionally with an {@link S3UploadException}
     */
    @Override
    public CompletableFuture<Void> delete(String key) {
        return deleted(key, removal.key(key));
    }

    /**
     * Starts deleting an object this uploader stored: in a bucket that keeps versions, exactly the version it stored
     * (an object stored under the same key since stays); otherwise the key's object if it still has the ETag the
     * upload got ({@code If-Match}: an object another writer stored there since stays), or, where the server does not
     * implement conditional deletes, the key's object.
     *
     * @param stored what {@link #upload(UploadRequest)} completed with
     * @return completes when the object is gone, or exceptionally with an {@link S3UploadException}
     */
    @Override
    public CompletableFuture<Void> delete(StoredObject stored) {
        return deleted(stored.key(), removal.object(stored));
    }

    /**
     * Starts listing the objects under a prefix, in key order (ListObjectsV2, page after page).
     *
     * @param prefix the start of the keys
     * @param after the last key of the previous page, or {@code null}
     * @param limit the most objects to return
     * @return completes with the objects, or exceptionally as the client's call fails
     */
    @Override
    public CompletableFuture<List<ListedObject>> listAsync(String prefix, @Nullable String after, int limit) {
        return Listing.list(settings, ops, prefix, after, limit);
    }

    private CompletableFuture<Void> deleted(String key, CompletableFuture<?> deleted) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        result.whenComplete((ignored, failure) -> {
            if (result.isCancelled()) {
                deleted.cancel(true);
            }
        });
        deleted.whenComplete((ignored, failure) -> {
            if (failure != null) {
                result.completeExceptionally(Failures.delete(settings, key, failure));
            } else {
                result.complete(null);
            }
        });
        return result;
    }

    /**
     * The client uploads go through: the one it was given, or the one it built from a client builder (whose
     * connection pool matches {@link S3UploadOptions#maxConcurrency()}; {@link #close()} closes that one).
     *
     * @return the client
     */
    public S3AsyncClient client() {
        return client;
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

    /**
     * Waits (at most the close timeout, {@link #CLOSE_TIMEOUT} unless {@link Builder#closeTimeout(Duration)} says
     * otherwise) for uploads that are still cleaning up (an upload cancelled by the core aborts or deletes what it
     * started after its future completed), then closes the client if this uploader built it (and its timeout
     * scheduler), and stops its own read threads. Close the uploader before the client it was given.
     */
    @Override
    public void close() {
        CompletableFuture<?>[] left = unfinished.toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(left).handle((ignored, failure) -> null)
                    .get(closeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("s3://{}: closing while {} uploads still clean up after {}; what they started may be left",
                    settings.bucket(), unfinished.size(), closeTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e); // cannot happen: failures are handled above
        }
        if (ownReads != null) {
            ownReads.shutdown();
        }
        if (ownsClient) {
            client.close();
        }
        if (ownTimeouts != null) {
            ownTimeouts.shutdown();
        }
    }

    @Override
    public String toString() {
        return "S3AsyncFileUploader[s3://" + settings.bucket() + "]";
    }

    /** Builds an {@link S3AsyncFileUploader}. Not thread-safe. */
    public static final class Builder {
        private final @Nullable S3AsyncClient client;
        private final @Nullable S3AsyncClientBuilder clientBuilder;
        private final String bucket;
        private S3UploadOptions options = S3UploadOptions.defaults();
        private @Nullable Executor reads;
        private Duration closeTimeout = CLOSE_TIMEOUT;

        private Builder(@Nullable S3AsyncClient client, @Nullable S3AsyncClientBuilder clientBuilder, String bucket) {
            this.client = client;
            this.clientBuilder = clientBuilder;
            this.bucket = Objects.requireNonNull(bucket, "bucket");
            if (bucket.isBlank()) {
                throw new IllegalArgumentException("bucket is blank");
            }
        }

        /**
         * Sets how objects are stored, and how many requests may be in flight.
         *
         * @param options the options; {@link S3UploadOptions#defaults()} by default
         * @return this builder
         */
        public Builder options(S3UploadOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Supplies the executor that reads {@code InputStream} content (blocking reads, one task per stream being
         * read). It must run tasks without waiting for each other; the uploader never shuts it down.
         *
         * @param executor the executor, or {@code null} for the uploader's own read threads
         * @return this builder
         */
        public Builder readExecutor(@Nullable Executor executor) {
            this.reads = executor;
            return this;
        }

        /**
         * Sets how long {@link S3AsyncFileUploader#close()} waits for uploads that still clean up (abort a multipart
         * upload, delete what a cancelled upload stored) before it closes anyway and logs what may be left. Lower it
         * to fit a shutdown budget, such as a platform's termination grace period; the Spring Boot starter sets its
         * stop timeout here.
         *
         * @param closeTimeout zero or more; {@link #CLOSE_TIMEOUT} by default
         * @return this builder
         * @throws IllegalArgumentException when it is negative
         */
        public Builder closeTimeout(Duration closeTimeout) {
            if (closeTimeout.isNegative()) {
                throw new IllegalArgumentException("closeTimeout must be zero or more, was " + closeTimeout);
            }
            this.closeTimeout = closeTimeout;
            return this;
        }

        /**
         * Builds the uploader (and its client, when given a client builder).
         *
         * @return a new uploader
         */
        public S3AsyncFileUploader build() {
            return new S3AsyncFileUploader(this);
        }
    }
}
