package io.github.boundedupload.direct;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.direct.GrantRefusedException.Reason;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadSigner;
import io.github.boundedupload.support.SafeText;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.EnumMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * storage keeps a checksum per part, not one of the object: a file sent in parts is announced without a checksum.
 *
 * <p><b>Plain HTML forms.</b> {@link #grantForm} grants one file sent with a form ({@code POST}), for a page without
 * script: the form binds the key, the content type and the most bytes the file may have, and the confirm takes the
 * size it finds.
 *
 * <p>Confirming a grant twice is harmless: the second confirm reports what the first stored, and copies nothing. Two
 * confirms of one grant at once in this JVM: the second is refused at once ({@link GrantRefusedException}), before
 * anything is copied; across a fleet, the store's lock does it ({@code JdbcGrantStore} in the caller's transaction).
 * Confirming a grant of another caller, or an unknown one, is refused before anything is copied. The staging objects
 * are not deleted by the confirm (a journal may still roll it back): a store that reconciles the staging prefix
 * removes them once no grant can cover them ({@code JdbcGrantStore}), and a lifecycle rule on the prefix is the
 * backstop (see {@code docs/direct-uploads.md}).
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
    /** The most parts of one multipart upload that S3 takes. */
    static final int MAX_PARTS = 10_000;
    private static final int MAX_CALLER_LENGTH = 200;
    private static final Logger LOG = LoggerFactory.getLogger(DirectUploads.class);

    private final ConcurrentAttachmentUploader uploader;
    private final UploadSigner signer;
    private final GrantStore store;
    private final String stagingPrefix;
    private final Duration lifetime;
    private final Announced announced;
    private final int maxOutstandingPerCaller;
    private final long partsAbove;
    private final long partSize;
    /** The ids of the grants being confirmed in this JVM: one confirm of a grant at a time, so one copy. */
    private final Set<String> confirming = ConcurrentHashMap.newKeySet();
    private final LongAdder granted = new LongAdder();
    private final Map<Reason, LongAdder> refused = new EnumMap<>(Reason.class);

    private DirectUploads(Builder builder) {
        this.uploader = builder.uploader;
        this.signer = builder.signer;
        this.store = builder.store;
        this.stagingPrefix = builder.stagingPrefix;
        this.lifetime = builder.lifetime;
        this.announced = new Announced(builder.maxFilesPerRequest, builder.maxBytesPerFile < 0
                ? uploader.config().maxAttachmentSize() : builder.maxBytesPerFile, builder.maxBytesPerRequest,
                builder.contentTypes);
        this.maxOutstandingPerCaller = builder.maxOutstandingPerCaller;
        this.partsAbove = builder.partsAbove;
        this.partSize = builder.partSize;
        for (Reason reason : Reason.values()) {
            refused.put(reason, new LongAdder());
        }
        if (signer.signsParts() && partsAbove > signer.largestPut()) {
            throw new IllegalArgumentException("partsAbove " + partsAbove + " is more than the " + signer.largestPut()
                    + " bytes one signed request of " + signer + " stores");
        }
        // What the staging prefix holds is removed once no grant covers it: the uploader's own keys must lie elsewhere.
        String sample = uploader.check(List.of(Attachment.of("sample.bin", new byte[0]))).get(0);
        if (sample.startsWith(stagingPrefix)) {
            throw new IllegalArgumentException("the uploader's keys (such as " + SafeText.quote(sample) + ") lie under"
                    + " the staging prefix " + SafeText.quote(stagingPrefix) + ", whose objects are removed once no"
                    + " grant covers them: give the staging prefix a place of its own");
        }
        store.serve(stagingPrefix, lifetime, signer);
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
        List<UploadGrant> grants = counted(() -> grantChecked(caller, files));
        granted.add(grants.size());
        return grants;
    }

    private List<UploadGrant> grantChecked(String caller, List<FileToUpload> files) {
        checkCaller(caller);
        List<Attachment> attachments = announced.check(files);
        uploader.check(attachments); // names, and the uploader's own bounds, as for an upload
        for (int i = 0; i < files.size(); i++) {
            checkSendable(i, files.get(i));
        }
        Instant now = Instant.now();
        Instant expiresAt = now.plus(lifetime);
        List<UploadGrant> grants = new ArrayList<>();
        boolean added = false;
        try {
            // Multipart uploads are started before the grants are kept: an upload's id is part of its grant. They are
            // aborted below when the grants are not kept; the reconciliation aborts them when this process dies first.
            for (int i = 0; i < files.size(); i++) {
                FileToUpload file = files.get(i);
                String id = UUID.randomUUID().toString();
                UploadGrant grant = UploadGrant.of(id, caller, file, stagingPrefix + id, expiresAt);
                grants.add(inParts(file) ? startParts(i, grant) : grant);
            }
            added = store.add(caller, grants.stream().map(UploadGrant::unsigned).toList(), maxOutstandingPerCaller,
                    now);
        } finally {
            if (!added) {
                abortParts(grants);
            }
        }
        if (!added) {
            throw new GrantRefusedException(Reason.OUTSTANDING_PER_CALLER, "the caller would hold more than the " + maxOutstandingPerCaller
                    + " grants a caller may hold unconfirmed (or the grant store is full): nothing was granted");
        }
        return grants.stream().map(grant -> grant.parts() != null ? grant : grant.withRequest(signPut(grant)))
                .toList();
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
        UploadGrant grant = counted(() -> grantFormChecked(caller, file));
        granted.increment();
        return grant;
    }

    private UploadGrant grantFormChecked(String caller, FileToUpload file) {
        checkCaller(caller);
        uploader.check(announced.check(List.of(file)));
        String label = SafeText.label(0, file.fileName());
        if (file.checksum() != null) {
            throw new GrantRefusedException(Reason.CHECKSUM, label + " is sent with a form, which sends no checksum: announce it"
                    + " without one");
        }
        if (file.size() > signer.largestPut()) {
            throw new GrantRefusedException(Reason.STORAGE_LIMIT, label + " may be " + file.size() + " bytes: one form of " + signer
                    + " stores at most " + signer.largestPut() + " bytes");
        }
        Instant now = Instant.now();
        String id = UUID.randomUUID().toString();
        UploadGrant grant = UploadGrant.ofForm(id, caller, file, stagingPrefix + id, now.plus(lifetime));
        // Signed first (no storage call): a signer that signs no forms fails before anything is kept.
        SignedRequest form = signer.signPost(SignRequest.builder(grant.stagingKey(), file.size(), file.contentType())
                .lifetime(lifetime).build());
        if (!store.add(caller, List.of(grant), maxOutstandingPerCaller, now)) {
            throw new GrantRefusedException(Reason.OUTSTANDING_PER_CALLER, "the caller would hold more than the " + maxOutstandingPerCaller
                    + " grants a caller may hold unconfirmed (or the grant store is full): nothing was granted");
        }
        return grant.withRequest(form);
    }

    /** Refuses a file that no signed request of this signer can carry, or that goes in parts with a checksum. */
    private void checkSendable(int index, FileToUpload file) {
        String label = SafeText.label(index, file.fileName());
        if (inParts(file)) {
            if (file.checksum() != null) {
                throw new GrantRefusedException(Reason.CHECKSUM, label + " is " + file.size() + " bytes, more than the "
                        + partsAbove
                        + " above which a file is sent in parts, whose checksum the storage keeps per part and not of"
                        + " the whole file: announce it without a checksum");
            }
        } else if (file.size() > signer.largestPut()) {
            throw new GrantRefusedException(Reason.STORAGE_LIMIT, label + " is " + file.size() + " bytes: one signed request of " + signer
                    + " stores at most " + signer.largestPut() + " bytes, and it signs no multipart uploads");
        }
    }

    private boolean inParts(FileToUpload file) {
        return file.size() > partsAbove && signer.signsParts();
    }

    private SignedRequest signPut(UploadGrant grant) {
        FileToUpload file = grant.file();
        SignRequest.Builder request = SignRequest.builder(grant.stagingKey(), file.size(), file.contentType())
                .lifetime(lifetime);
        if (file.checksum() != null) {
            request.checksum(Objects.requireNonNull(file.checksumAlgorithm()), file.checksum());
        }
        return signer.signPut(request.build());
    }

    private UploadGrant startParts(int index, UploadGrant grant) {
        FileToUpload file = grant.file();
        SignRequest request = SignRequest.builder(grant.stagingKey(), file.size(), file.contentType())
                .lifetime(lifetime).build();
        // Parts of at least partSize, and no more than S3's 10,000 of them.
        long size = Math.max(partSize, (file.size() + MAX_PARTS - 1) / MAX_PARTS);
        try {
            return grant.withParts(signer.signParts(request, size));
        } catch (IOException e) {
            throw new UploadException("could not start the multipart upload of " + SafeText.label(index,
                    file.fileName()) + ": nothing was granted: " + SafeText.describe(e), e);
        }
    }

    /** Aborts the multipart uploads of grants that are not kept; what fails the reconciliation aborts later. */
    private void abortParts(List<UploadGrant> grants) {
        for (UploadGrant grant : grants) {
            String uploadId = grant.uploadId();
            if (uploadId != null) {
                try {
                    signer.abortParts(grant.stagingKey(), uploadId);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("direct uploads: could not abort the multipart upload of a grant that was not kept; the"
                            + " reconciliation (or the bucket's lifecycle rule) aborts it later: {}",
                            SafeText.describe(e));
                }
            }
        }
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
        return counted(() -> confirmChecked(caller, grantIds, metadata));
    }

    private BatchResult confirmChecked(String caller, List<String> grantIds, Map<String, String> metadata) {
        checkCaller(caller);
        Set<String> ids = new LinkedHashSet<>(grantIds);
        if (ids.isEmpty() || ids.size() != grantIds.size()) {
            throw new GrantRefusedException(Reason.IDS, "a confirm of " + grantIds.size() + " grant ids: one or more, none twice");
        }
        List<String> claimed = new ArrayList<>();
        try {
            for (String id : ids) {
                if (!confirming.add(id)) {
                    throw new GrantRefusedException(Reason.BEING_CONFIRMED, "grant " + SafeText.quote(id) + " is being confirmed by another"
                            + " request at this moment: nothing was confirmed; confirm again once it ends");
                }
                claimed.add(id);
            }
            return confirmClaimed(caller, grantIds, ids, metadata);
        } finally {
            confirming.removeAll(claimed);
        }
    }

    private BatchResult confirmClaimed(String caller, List<String> grantIds, Set<String> ids,
            Map<String, String> metadata) {
        Map<String, UploadGrant> found = new HashMap<>();
        store.find(caller, ids).forEach(grant -> found.put(grant.id(), grant));
        for (String id : grantIds) {
            if (!found.containsKey(id)) {
                throw new GrantRefusedException(Reason.NOT_THE_CALLERS, "grant " + SafeText.quote(id) + " is not one of the caller's (unknown,"
                        + " another caller's, or forgotten): nothing was confirmed");
            }
        }
        List<UploadGrant> grants = grantIds.stream().map(found::get).toList();
        List<Attachment> copies = new ArrayList<>();
        List<Integer> copied = new ArrayList<>();
        UploadResult[] results = new UploadResult[grants.size()];
        boolean incomplete = false;
        for (int i = 0; i < grants.size(); i++) {
            UploadGrant grant = grants.get(i);
            StoredObject confirmed = grant.confirmed();
            if (confirmed != null) {
                results[i] = UploadResult.stored(i, attachment(grant, metadata, grant.file().size()), confirmed);
                continue; // confirmed before: as it was
            }
            Arrived arrived = arrived(i, grant);
            Attachment attachment = attachment(grant, metadata, arrived.size);
            if (arrived.failure == null) {
                copies.add(attachment);
                copied.add(i);
            } else {
                results[i] = UploadResult.notStored(i, attachment, grant.stagingKey(), UploadResult.Status.FAILED,
                        arrived.failure);
                incomplete = true;
            }
        }
        if (incomplete && uploader.config().failurePolicy() == FailurePolicy.ALL_OR_NOTHING) {
            UploadException stopped = new UploadException("not copied: a file of the confirm was not complete", null);
            for (int c = 0; c < copied.size(); c++) {
                int i = copied.get(c);
                results[i] = UploadResult.notStored(i, copies.get(c), grants.get(i).stagingKey(),
                        UploadResult.Status.CANCELLED, stopped);
            }
            throw new BatchFailedException(uploader.name(), new BatchResult(List.of(results)));
        }
        if (copies.isEmpty()) {
            return new BatchResult(List.of(results));
        }
        BatchResult batch = uploader.uploadAll(copies);
        Map<String, StoredObject> stored = new HashMap<>();
        for (UploadResult result : batch.results()) {
            int index = copied.get(result.index());
            UploadGrant grant = grants.get(index);
            if (result.storedObject().isPresent()) {
                stored.put(grant.id(), result.storedObject().get());
                results[index] = UploadResult.stored(index, result.attachment(), result.storedObject().get());
            } else {
                results[index] = UploadResult.notStored(index, result.attachment(), result.key(), result.status(),
                        result.failure().orElseThrow());
            }
        }
        if (!stored.isEmpty()) {
            store.confirmed(caller, stored);
        }
        return new BatchResult(List.of(results));
    }

    /** What arrived of a grant's file: the size of its object, or why it is not there to be copied. */
    private record Arrived(long size, @Nullable UploadException failure) {
    }

    /**
     * What arrived: a file sent in parts has its multipart upload completed; a file sent with a form has the size
     * found (at most its bound); a file sent with one PUT is as announced (the copy checks it).
     */
    private Arrived arrived(int index, UploadGrant grant) {
        FileToUpload file = grant.file();
        String label = SafeText.label(index, file.fileName());
        String uploadId = grant.uploadId();
        try {
            if (uploadId != null) {
                signer.completeParts(grant.stagingKey(), uploadId, file.size());
            } else if (grant.form()) {
                long found = signer.storedSize(grant.stagingKey()).orElse(-1);
                if (found < 0 || found > file.size()) {
                    return new Arrived(file.size(), new UploadException(label + " was sent with a form, and "
                            + (found < 0 ? "nothing arrived" : "is " + found + " bytes, more than the " + file.size()
                                    + " its form allowed"), null));
                }
                return new Arrived(found, null);
            }
            return new Arrived(file.size(), null);
        } catch (IOException | RuntimeException e) {
            return new Arrived(file.size(), new UploadException(label + (uploadId != null ? " was sent in parts, and"
                    + " its upload could not be completed: " : " was sent with a form, and what arrived could not be"
                    + " found: ") + SafeText.describe(e), e));
        }
    }

    /** The attachment that copies a grant's object: its file's name and type, its object as found. */
    private static Attachment attachment(UploadGrant grant, Map<String, String> metadata, long size) {
        FileToUpload file = grant.file();
        StoredObject.Builder announced = StoredObject.builder(grant.stagingKey(), size);
        if (file.checksum() != null) {
            announced.checksum(Objects.requireNonNull(file.checksumAlgorithm()), file.checksum());
        }
        Attachment.Builder attachment = Attachment.builder(file.fileName(),
                AttachmentContent.ofStoredObject(announced.build())).contentType(file.contentType()).metadata(metadata);
        return attachment.build();
    }

    /** The work, its refusals counted by reason. */
    private <T> T counted(Supplier<T> work) {
        try {
            return work.get();
        } catch (GrantRefusedException e) {
            Objects.requireNonNull(refused.get(e.reason())).increment();
            throw e;
        }
    }

    /**
     * What this object granted and refused since it was built: for meters
     * ({@link io.github.boundedupload.micrometer.DirectUploadsMeters}) and health details.
     *
     * @return the counts now
     */
    public Stats stats() {
        Map<Reason, Long> byReason = new EnumMap<>(Reason.class);
        refused.forEach((reason, count) -> byReason.put(reason, count.sum()));
        return new Stats(granted.sum(), byReason);
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
