package io.github.boundedupload.direct;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.direct.GrantRefusedException.Reason;
import io.github.boundedupload.spi.SignRequest;
import io.github.boundedupload.spi.SignedRequest;
import io.github.boundedupload.spi.UploadSigner;
import io.github.boundedupload.support.SafeText;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The grant side of {@link DirectUploads}: what a client announces checked, its grants kept, and what it sends
 * signed (one PUT, the parts of a multipart upload started here, or a form). Changes when how a file is granted
 * changes.
 */
final class Granting {

    /** The most parts of one multipart upload that S3 takes. */
    static final int MAX_PARTS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(DirectUploads.class);

    private final ConcurrentAttachmentUploader uploader;
    private final UploadSigner signer;
    private final GrantStore store;
    private final Announced announced;
    private final String stagingPrefix;
    private final Duration lifetime;
    private final int maxOutstandingPerCaller;
    private final long partsAbove;
    private final long partSize;

    Granting(ConcurrentAttachmentUploader uploader, UploadSigner signer, GrantStore store, Announced announced,
            String stagingPrefix, Duration lifetime, int maxOutstandingPerCaller, long partsAbove, long partSize) {
        this.uploader = uploader;
        this.signer = signer;
        this.store = store;
        this.announced = announced;
        this.stagingPrefix = stagingPrefix;
        this.lifetime = lifetime;
        this.maxOutstandingPerCaller = maxOutstandingPerCaller;
        this.partsAbove = partsAbove;
        this.partSize = partSize;
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
    }

    List<UploadGrant> grant(String caller, List<FileToUpload> files) {
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
            keep(caller, grants.stream().map(UploadGrant::unsigned).toList(), now);
            added = true;
        } finally {
            if (!added) {
                abortParts(grants);
            }
        }
        return grants.stream().map(grant -> grant.parts() != null ? grant : grant.withRequest(signPut(grant)))
                .toList();
    }

    UploadGrant grantForm(String caller, FileToUpload file) {
        uploader.check(announced.check(List.of(file)));
        String label = SafeText.label(0, file.fileName());
        if (file.checksum() != null) {
            throw new GrantRefusedException(Reason.CHECKSUM, label + " is sent with a form, which sends no checksum:"
                    + " announce it without one");
        }
        if (file.size() > signer.largestPut()) {
            throw new GrantRefusedException(Reason.STORAGE_LIMIT, label + " may be " + file.size() + " bytes: one"
                    + " form of " + signer + " stores at most " + signer.largestPut() + " bytes");
        }
        Instant now = Instant.now();
        String id = UUID.randomUUID().toString();
        UploadGrant grant = UploadGrant.ofForm(id, caller, file, stagingPrefix + id, now.plus(lifetime));
        // Signed first (no storage call): a signer that signs no forms fails before anything is kept.
        SignedRequest form = signer.signPost(request(grant).build());
        keep(caller, List.of(grant), now);
        return grant.withRequest(form);
    }

    /** Keeps the grants, all or none: none when the caller would hold more than it may. */
    private void keep(String caller, List<UploadGrant> grants, Instant now) {
        if (!store.add(caller, grants, maxOutstandingPerCaller, now)) {
            throw new GrantRefusedException(Reason.OUTSTANDING_PER_CALLER, "the caller would hold more than the "
                    + maxOutstandingPerCaller + " grants a caller may hold unconfirmed (or the grant store is full):"
                    + " nothing was granted");
        }
    }

    /** What is signed for a grant: its staging key, its file's size and type, for the grants' lifetime. */
    private SignRequest.Builder request(UploadGrant grant) {
        FileToUpload file = grant.file();
        return SignRequest.builder(grant.stagingKey(), file.size(), file.contentType()).lifetime(lifetime);
    }

    /** Refuses a file that no signed request of this signer can carry, or that goes in parts with a checksum. */
    private void checkSendable(int index, FileToUpload file) {
        String label = SafeText.label(index, file.fileName());
        if (inParts(file)) {
            if (file.checksum() != null) {
                throw new GrantRefusedException(Reason.CHECKSUM, label + " is " + file.size() + " bytes, more than the "
                        + partsAbove + " above which a file is sent in parts, whose checksum the storage keeps per part"
                        + " and not of the whole file: announce it without a checksum");
            }
        } else if (file.size() > signer.largestPut()) {
            throw new GrantRefusedException(Reason.STORAGE_LIMIT, label + " is " + file.size() + " bytes: one signed"
                    + " request of " + signer + " stores at most " + signer.largestPut() + " bytes, and it signs no"
                    + " multipart uploads");
        }
    }

    private boolean inParts(FileToUpload file) {
        return file.size() > partsAbove && signer.signsParts();
    }

    private SignedRequest signPut(UploadGrant grant) {
        FileToUpload file = grant.file();
        SignRequest.Builder request = request(grant);
        if (file.checksum() != null) {
            request.checksum(Objects.requireNonNull(file.checksumAlgorithm()), file.checksum());
        }
        return signer.signPut(request.build());
    }

    private UploadGrant startParts(int index, UploadGrant grant) {
        FileToUpload file = grant.file();
        SignRequest request = request(grant).build();
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
}
