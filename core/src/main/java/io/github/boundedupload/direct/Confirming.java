package io.github.boundedupload.direct;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.FailurePolicy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.direct.GrantRefusedException.Reason;
import io.github.boundedupload.spi.UploadSigner;
import io.github.boundedupload.support.SafeText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The confirm side of {@link DirectUploads}: the caller's grants found, what arrived settled (a multipart upload
 * completed, a form's size found), and the objects copied as one batch of the uploader. Changes when how a grant is
 * confirmed changes.
 */
final class Confirming {

    private final ConcurrentAttachmentUploader uploader;
    private final UploadSigner signer;
    private final GrantStore store;
    /** The ids of the grants being confirmed in this JVM: one confirm of a grant at a time, so one copy. */
    private final Set<String> confirming = ConcurrentHashMap.newKeySet();

    Confirming(ConcurrentAttachmentUploader uploader, UploadSigner signer, GrantStore store) {
        this.uploader = uploader;
        this.signer = signer;
        this.store = store;
    }

    BatchResult confirm(String caller, List<String> grantIds, Map<String, String> metadata) {
        Set<String> ids = new LinkedHashSet<>(grantIds);
        if (ids.isEmpty() || ids.size() != grantIds.size()) {
            throw new GrantRefusedException(Reason.IDS, "a confirm of " + grantIds.size() + " grant ids: one or more,"
                    + " none twice");
        }
        List<String> claimed = new ArrayList<>();
        try {
            for (String id : ids) {
                if (!confirming.add(id)) {
                    throw new GrantRefusedException(Reason.BEING_CONFIRMED, "grant " + SafeText.quote(id) + " is being"
                            + " confirmed by another request at this moment: nothing was confirmed; confirm again once"
                            + " it ends");
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
                throw new GrantRefusedException(Reason.NOT_THE_CALLERS, "grant " + SafeText.quote(id) + " is not one of"
                        + " the caller's (unknown, another caller's, or forgotten): nothing was confirmed");
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
}
