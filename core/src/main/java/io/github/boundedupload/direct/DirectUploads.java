package io.github.boundedupload.direct;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.direct.GrantRefusedException.Reason;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.UploadSigner;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Direct uploads: the bytes go from the client (a browser, a mobile app) to the storage, and never cross the
 * application. {@link #grant} checks the files a client announces against this object's bounds and the uploader's own
 * checks, keeps a grant per file in a {@link GrantStore} and signs a request per file, bound to what was announced;
 * the client sends each file with its request; {@link #confirm} copies what arrived under the uploader's keys as one
 * batch of the uploader's (its bounds, its failure policy, its journal), each object checked against its grant first.
 * Thread-safe. Changes when the steps of a direct upload change.
 *
 * <pre>{@code
 * DirectUploads direct = DirectUploads.builder(uploader, S3UploadSigner.builder(presigner, bucket).build())
 *     .grants(new InMemoryGrantStore())          // one instance; rows of the database across a fleet
 *     .maxBytesPerFile(20 * 1024 * 1024)
 *     .build();
 * List<UploadGrant> grants = direct.grant(userId, List.of(FileToUpload.of("slides.pdf", 48_213, "application/pdf")));
 * // ... the client PUTs each file with grant.signedRequest(), then reports the ids it used ...
 * BatchResult result = direct.confirm(userId, ids);   // in the caller's transaction, with a journal
 * }</pre>
 *
 * <p><b>Large files go in parts.</b> A file larger than {@link Builder#partsAbove(long)} (100 MiB by default), where
 * the signer signs multipart uploads (S3's does when it has a client), gets a multipart upload, started at the grant,
 * and a signed PUT per part ({@link UploadGrant#signedParts()}): one PUT of S3 stores at most 5 GiB, and parts can be
 * sent several at once and again after a failure. The confirm completes the upload (every part there, the announced
 * size in all), then copies it as any other; an upload nobody completes is aborted by the store's reconciliation. The
 * storage keeps a checksum per part, not one of the object: a file sent in parts is announced without a checksum. A
 * page without script uses {@link #grantForm}: a form that binds the most bytes, whose confirm takes the size found.
 *
 * <p>Confirming a grant twice is harmless: the second confirm reports what the first stored, and copies nothing. Two
 * confirms of one grant at once in this JVM: the second is refused at once ({@link GrantRefusedException}), before
 * anything is copied; across a fleet, the store's lock does it ({@code JdbcGrantStore} in the caller's transaction).
 * Confirming a grant of another caller, or an unknown one, is refused before anything is copied. A store that
 * reconciles the staging prefix removes the staging objects once no grant can cover them ({@code JdbcGrantStore}); a
 * lifecycle rule on the prefix is the backstop ({@code docs/direct-uploads.md}).
 */
public final class DirectUploads {

    /** Default {@link Builder#stagingPrefix(String)}. */
    public static final String DEFAULT_STAGING_PREFIX = "staging/";
    /** Default {@link Builder#maxFilesPerRequest(int)}. */
    public static final int DEFAULT_MAX_FILES_PER_REQUEST = 20;
    /** Default {@link Builder#maxBytesPerRequest(long)}: 1 GiB. */
    public static final long DEFAULT_MAX_BYTES_PER_REQUEST = 1024L * 1024 * 1024;
    /** Default {@link Builder#maxOutstandingPerCaller(int)}. */
    public static final int DEFAULT_MAX_OUTSTANDING_PER_CALLER = 100;
    /** Default {@link Builder#partsAbove(long)}: 100 MiB. */
    public static final long DEFAULT_PARTS_ABOVE = 100L * 1024 * 1024;
    /** Default {@link Builder#partSize(long)}: 16 MiB. */
    public static final long DEFAULT_PART_SIZE = 16L * 1024 * 1024;
    /** The smallest part but the last that S3 takes: 5 MiB. */
    public static final long MIN_PART_SIZE = 5L * 1024 * 1024;
    private static final int MAX_CALLER_LENGTH = 200;

    private final ConcurrentAttachmentUploader uploader;
    private final GrantStore store;
    private final Granting granting;
    private final Confirming confirming;
    private final Tally tally = new Tally();

    private DirectUploads(Builder builder) {
        this.uploader = builder.uploader;
        this.store = builder.store;
        UploadSigner signer = builder.signer;
        String stagingPrefix = builder.stagingPrefix;
        long partsAbove = builder.partsAbove;
        Announced announced = new Announced(builder.maxFilesPerRequest, builder.maxBytesPerFile < 0
                ? uploader.config().maxAttachmentSize() : builder.maxBytesPerFile, builder.maxBytesPerRequest,
                builder.contentTypes);
        this.granting = new Granting(uploader, signer, store, announced, stagingPrefix, builder.lifetime,
                builder.maxOutstandingPerCaller, partsAbove, builder.partSize);
        this.confirming = new Confirming(uploader, signer, store);
        store.serve(stagingPrefix, builder.lifetime, signer);
    }

    /**
     * A builder of direct uploads through an uploader and a signer of its storage.
     *
     * @param uploader the uploader whose storage the clients upload to, and which confirms
     * @param signer the signer of that storage
     * @return a new builder
     */
    public static Builder builder(ConcurrentAttachmentUploader uploader, UploadSigner signer) {
        return new Builder(uploader, signer);
    }

    /**
     * Grants one request of files: every file is checked first (its name by the uploader's own checks, its size, its
     * content type and checksum algorithm, and the request's count and bytes), then a grant per file is kept, then a
     * request per file is signed. Nothing is kept or signed when anything is refused (the multipart upload of a file
     * sent in parts is started, and its parts signed, before its grant is kept: it is aborted then).
     *
     * @param caller the caller key the grants are bound to (a user, a tenant), at most 200 characters
     * @param files the files the client announced, in order
     * @return a grant per file, in order, each with its signed request
     * @throws GrantRefusedException when a bound would be exceeded; the message names the file and the bound
     * @throws io.github.boundedupload.InvalidAttachmentException when a file name is invalid, naming the file
     */
    public List<UploadGrant> grant(String caller, List<FileToUpload> files) {
        checkCaller(caller);
        List<UploadGrant> grants = tally.counted(() -> granting.grant(caller, files));
        tally.granted(grants.size());
        return grants;
    }


    /**
     * Grants one file sent with a plain HTML form ({@code POST}, {@code multipart/form-data}), whose browser announces
     * nothing before the user picks the file: the form's fields bind the staging key, the content type and the most
     * bytes the file may have ({@code file.size()}, checked against {@link Builder#maxBytesPerFile}), and the storage
     * refuses a larger file and a form sent after the lifetime. No checksum: a form cannot compute one. The confirm
     * takes the size it finds (at most the bound), and copies the object as any other. The signer must sign forms
     * (S3's, given the credentials and region; not the local disk's).
     *
     * <pre>{@code
     * UploadGrant grant = direct.grantForm(userId, FileToUpload.of("avatar.png", 2 * 1024 * 1024, "image/png"));
     * SignedRequest form = grant.signedRequest().orElseThrow();
     * // <form action="${form.url()}" method="post" enctype="multipart/form-data">
     * //   a hidden input per form.fields() entry, in order, then <input type="file" name="file">
     * }</pre>
     *
     * @param caller the caller key the grant is bound to
     * @param file the file: the name the application gives it, the most bytes it may have, its content type
     * @return the grant, with its signed form
     * @throws GrantRefusedException when a bound would be exceeded, or the file has a checksum; naming the file
     * @throws io.github.boundedupload.InvalidAttachmentException when the file name is invalid
     * @throws UnsupportedOperationException when the signer signs no forms
     */
    public UploadGrant grantForm(String caller, FileToUpload file) {
        checkCaller(caller);
        UploadGrant grant = tally.counted(() -> granting.grantForm(caller, file));
        tally.granted(1);
        return grant;
    }



    /**
     * Confirms the grants whose files the client says it sent, as one batch of the uploader: each object is checked
     * against its grant (it exists, its size, its checksum where one was announced) and copied under the key the
     * uploader's key strategy gives its file name, under the uploader's bounds and failure policy, recorded by its
     * journal (in the caller's transaction, where there is one). A grant confirmed already is reported as it was
     * stored, and not copied again.
     *
     * @param caller the caller key the grants were granted to
     * @param grantIds the ids of the grants to confirm, in the order of the result; no id twice
     * @return a result per grant, in order
     * @throws GrantRefusedException when an id is not one of the caller's grants (unknown, another caller's, or
     *         forgotten), before anything is copied
     * @throws io.github.boundedupload.BatchFailedException when the batch fails under
     *         {@link io.github.boundedupload.FailurePolicy#ALL_OR_NOTHING}: nothing of it is kept, the grants stay
     *         unconfirmed
     */
    public BatchResult confirm(String caller, List<String> grantIds) {
        return confirm(caller, grantIds, Map.of());
    }

    /**
     * Confirms the grants as {@link #confirm(String, List)} does, with metadata for every file confirmed: what the
     * uploader's key strategy reads (an application's id, say) and the storage keeps with each copy, as an
     * {@link Attachment}'s metadata.
     *
     * @param caller the caller key the grants were granted to
     * @param grantIds the ids of the grants to confirm, in the order of the result; no id twice
     * @param metadata the metadata of each file copied (not of a grant confirmed before, which is as it was stored)
     * @return a result per grant, in order
     * @throws GrantRefusedException when an id is not one of the caller's grants (unknown, another caller's, or
     *         forgotten), before anything is copied
     * @throws io.github.boundedupload.InvalidAttachmentException when the metadata is not what an attachment takes
     * @throws io.github.boundedupload.BatchFailedException when the batch fails under
     *         {@link io.github.boundedupload.FailurePolicy#ALL_OR_NOTHING}: nothing of it is kept, the grants stay
     *         unconfirmed
     */
    public BatchResult confirm(String caller, List<String> grantIds, Map<String, String> metadata) {
        checkCaller(caller);
        return tally.counted(() -> confirming.confirm(caller, grantIds, metadata));
    }


    /**
     * What this object granted and refused since it was built: for meters
     * ({@link io.github.boundedupload.micrometer.DirectUploadsMeters}) and health details.
     *
     * @return the counts now
     */
    public Stats stats() {
        return tally.stats();
    }

    /**
     * What a {@link DirectUploads} granted and refused since it was built.
     *
     * @param granted the files granted (a grant each)
     * @param refused the requests for grants and the confirms refused, by reason (every reason, zero or more)
     */
    public record Stats(long granted, Map<Reason, Long> refused) {

        /**
         * The counts.
         *
         * @param granted the files granted
         * @param refused the refusals by reason
         */
        public Stats {
            refused = Map.copyOf(refused);
        }
    }

    private static void checkCaller(String caller) {
        if (caller == null || caller.isBlank() || caller.length() > MAX_CALLER_LENGTH) {
            throw new IllegalArgumentException("a caller key has 1 to " + MAX_CALLER_LENGTH + " characters");
        }
    }

    @Override
    public String toString() {
        return "DirectUploads[" + uploader.name() + ", " + store + "]";
    }

    /** Builds {@link DirectUploads}. Not thread-safe. */
    public static final class Builder {
        private final ConcurrentAttachmentUploader uploader;
        private final UploadSigner signer;
        private GrantStore store = new InMemoryGrantStore();
        private String stagingPrefix = DEFAULT_STAGING_PREFIX;
        private Duration lifetime = SignRequest.DEFAULT_LIFETIME;
        private int maxFilesPerRequest = DEFAULT_MAX_FILES_PER_REQUEST;
        private long maxBytesPerFile = -1;
        private long maxBytesPerRequest = DEFAULT_MAX_BYTES_PER_REQUEST;
        private int maxOutstandingPerCaller = DEFAULT_MAX_OUTSTANDING_PER_CALLER;
        private Set<String> contentTypes = Set.of();
        private long partsAbove = DEFAULT_PARTS_ABOVE;
        private long partSize = DEFAULT_PART_SIZE;

        private Builder(ConcurrentAttachmentUploader uploader, UploadSigner signer) {
            this.uploader = Objects.requireNonNull(uploader, "uploader");
            this.signer = Objects.requireNonNull(signer, "signer");
        }

        /**
         * Where grants are kept. Default: an {@link InMemoryGrantStore} (one instance only).
         *
         * @param store the store
         * @return this builder
         */
        public Builder grants(GrantStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * The prefix of the staging keys, where clients put their files until they are confirmed; give it a lifecycle
         * rule. Default {@value DirectUploads#DEFAULT_STAGING_PREFIX}.
         *
         * @param prefix a prefix ending in {@code /}
         * @return this builder
         */
        public Builder stagingPrefix(String prefix) {
            if (prefix.isEmpty() || !prefix.endsWith("/") || prefix.startsWith("/") || prefix.contains("..")) {
                throw new IllegalArgumentException("stagingPrefix must end in '/', and not start with '/' or hold"
                        + " '..': " + SafeText.quote(prefix));
            }
            this.stagingPrefix = prefix;
            return this;
        }

        /**
         * How long a signed request may be used. Default 10 minutes.
         *
         * @param lifetime more than zero
         * @return this builder
         */
        public Builder lifetime(Duration lifetime) {
            if (lifetime.isNegative() || lifetime.isZero()) {
                throw new IllegalArgumentException("lifetime must be more than zero, was " + lifetime);
            }
            this.lifetime = lifetime;
            return this;
        }

        /**
         * The most files one request may announce. Default {@value DirectUploads#DEFAULT_MAX_FILES_PER_REQUEST}.
         *
         * @param max one or more
         * @return this builder
         */
        public Builder maxFilesPerRequest(int max) {
            this.maxFilesPerRequest = positive(max, "maxFilesPerRequest");
            return this;
        }

        /**
         * The largest file. Default: the uploader's {@code maxAttachmentSize}.
         *
         * @param max bytes, one or more
         * @return this builder
         */
        public Builder maxBytesPerFile(long max) {
            this.maxBytesPerFile = positive(max, "maxBytesPerFile");
            return this;
        }

        /**
         * The most bytes one request may announce. Default 1 GiB.
         *
         * @param max bytes, one or more
         * @return this builder
         */
        public Builder maxBytesPerRequest(long max) {
            this.maxBytesPerRequest = positive(max, "maxBytesPerRequest");
            return this;
        }

        /**
         * The most grants a caller may hold neither confirmed nor expired. Default
         * {@value DirectUploads#DEFAULT_MAX_OUTSTANDING_PER_CALLER}.
         *
         * @param max one or more
         * @return this builder
         */
        public Builder maxOutstandingPerCaller(int max) {
            this.maxOutstandingPerCaller = positive(max, "maxOutstandingPerCaller");
            return this;
        }

        /**
         * The content types a file may have: exact ({@code application/pdf}) or a whole type ({@code image/*}).
         * Default: any well-formed {@code type/subtype}.
         *
         * @param types the allowed types
         * @return this builder
         */
        public Builder contentTypes(Set<String> types) {
            Set<String> lower = new LinkedHashSet<>();
            types.forEach(type -> lower.add(type.toLowerCase(java.util.Locale.ROOT)));
            this.contentTypes = lower;
            return this;
        }

        /**
         * The size above which a file is sent in parts, where the signer signs multipart uploads
         * ({@link UploadSigner#signsParts()}): at most what one of its signed requests stores (S3: 5 GiB). Default
         * 100 MiB.
         *
         * @param bytes one or more
         * @return this builder
         */
        public Builder partsAbove(long bytes) {
            this.partsAbove = positive(bytes, "partsAbove");
            return this;
        }

        /**
         * The size of the parts of a file sent in parts (but its last): larger for a file that would otherwise have
         * more than S3's 10,000 parts. Default 16 MiB.
         *
         * @param bytes at least 5 MiB, the smallest part S3 takes
         * @return this builder
         */
        public Builder partSize(long bytes) {
            if (bytes < MIN_PART_SIZE) {
                throw new IllegalArgumentException("partSize must be >= " + MIN_PART_SIZE + " (5 MiB, the smallest"
                        + " part S3 takes), was " + bytes);
            }
            this.partSize = bytes;
            return this;
        }

        /**
         * Builds the direct uploads.
         *
         * @return a new, immutable instance
         */
        public DirectUploads build() {
            return new DirectUploads(this);
        }

        private static <N extends Number> N positive(N value, String name) {
            if (value.longValue() < 1) {
                throw new IllegalArgumentException(name + " must be >= 1, was " + value);
            }
            return value;
        }
    }
}
