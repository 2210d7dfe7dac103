package io.github.boundedupload.examples.studyweek.week;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.KeyStrategy;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.autoconfigure.DeferredUploadEvent;
import io.github.boundedupload.direct.DirectUploads;
import io.github.boundedupload.jdbc.DeferredAttachment;
import io.github.boundedupload.jdbc.DeferredBatch;
import io.github.boundedupload.jdbc.DeferredUploads;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates weeks: the uploads and the week in one transaction, atomically, without holding a database connection while
 * the files upload. Changes when how a week and its uploads are created together changes.
 *
 * <p>The upload journal ({@code bounded-upload.journal.enabled}) records the batch in the database before its first
 * byte, on a connection of its own, and writes "keep these objects" in this transaction. So:
 * <ul>
 *   <li>an upload fails: the uploader (all-or-nothing, the default) deletes what the batch stored and throws; nothing
 *       is saved;</li>
 *   <li>the week cannot be saved after the uploads (a duplicate title, the database down): the transaction rolls
 *       back, and the journal deletes the uploaded objects at once, retrying until the storage confirms;</li>
 *   <li>the process dies at any point (a deploy, an OOM kill): the transaction never commits, and the journal, on any
 *       instance, deletes the objects when the batch's lease ends.</li>
 * </ul>
 * No row points to a missing object and no object is left without a row. The transaction takes a connection only at
 * its first statement, after the uploads ({@code spring.datasource.hikari.auto-commit: false} with Hibernate's
 * {@code provider_disables_autocommit}, in application.yml): a burst of slow uploads does not drain the pool.
 */
@Service
public class WeekService {

    /** The metadata entry that carries the study id to the key strategy and into the stored object. */
    public static final String STUDY_ID = "study-id";

    private final ConcurrentAttachmentUploader uploader;
    private final StudyWeekRepository weeks;
    private final TransactionTemplate transaction;
    private final Clock clock;
    private final DeferredUploads deferred;
    private final ObjectProvider<DirectUploads> direct;

    WeekService(ConcurrentAttachmentUploader uploader, StudyWeekRepository weeks, TransactionTemplate transaction,
            Clock clock, DeferredUploads deferred, ObjectProvider<DirectUploads> direct) {
        this.uploader = uploader;
        this.weeks = weeks;
        this.transaction = transaction;
        this.clock = clock;
        this.deferred = deferred;
        this.direct = direct;
    }

    /**
     * Storage keys of the form {@code studies/<study id>/yyyy/MM/dd/<uuid>-<sanitised file name>}: a study's files
     * share a prefix, and file names reach a key only sanitised.
     *
     * @return the key strategy
     */
    public static KeyStrategy keyStrategy() {
        KeyStrategy dated = KeyStrategy.datedUuid("");
        return attachment -> "studies/" + attachment.metadata().getOrDefault(STUDY_ID, "none") + "/"
                + dated.keyFor(attachment);
    }

    /**
     * Uploads the attachments concurrently, then saves the week with them.
     *
     * @param studyId the study
     * @param form the week's fields, already validated
     * @param attachments the files, in the order they are to be listed; made with {@link #STUDY_ID} metadata
     * @return the saved week, with its attachments
     * @throws DuplicateWeekException when the study already has a week with this title; nothing is stored
     * @throws io.github.boundedupload.UploadException when the uploads were refused or failed; nothing is stored
     * @throws org.springframework.dao.DataAccessException when the week could not be saved; nothing is stored
     */
    public StudyWeek create(long studyId, NewWeek form, List<Attachment> attachments) {
        // A cheap check first, so that an obvious duplicate costs no upload. Two concurrent requests can both pass
        // it: the unique constraint catches the second one after its upload, below.
        String title = form.title().strip();
        if (weeks.existsByStudyIdAndTitle(studyId, title)) {
            throw new DuplicateWeekException(studyId, title, null);
        }

        try {
            return transaction.execute(status -> {
                BatchResult uploaded = uploader.uploadAll(attachments);
                return weeks.saveAndFlush(week(studyId, title, form, uploaded));
            });
        } catch (DataIntegrityViolationException e) {
            // Which constraint failed is worded differently by every database: ask again instead.
            if (weeks.existsByStudyIdAndTitle(studyId, title)) {
                throw new DuplicateWeekException(studyId, title, e);
            }
            throw e;
        }
    }

    /**
     * Saves the week at once and uploads its files after the response (source 003's "respond first"): the files are
     * staged in the database with the week, in one transaction, and listed {@code PENDING} until their upload ends.
     * Nothing is lost if the process dies after the response: any instance uploads them.
     *
     * @param studyId the study
     * @param form the week's fields, already validated
     * @param attachments the files, in order; made with {@link #STUDY_ID} metadata
     * @return the saved week, its attachments pending
     * @throws DuplicateWeekException when the study already has a week with this title; nothing is staged
     * @throws io.github.boundedupload.jdbc.StagingFullException when the staging area is full; nothing is saved
     */
    public StudyWeek createDeferred(long studyId, NewWeek form, List<Attachment> attachments) {
        String title = form.title().strip();
        if (weeks.existsByStudyIdAndTitle(studyId, title)) {
            throw new DuplicateWeekException(studyId, title, null);
        }
        try {
            return transaction.execute(status -> {
                DeferredBatch batch = deferred.submit(attachments);
                StudyWeek week = newWeek(studyId, title, form);
                for (int i = 0; i < attachments.size(); i++) {
                    week.addPendingAttachment(attachments.get(i).fileName(),
                            attachments.get(i).content().length().orElse(0), batch.keys().get(i), batch.id());
                }
                return weeks.saveAndFlush(week);
            });
        } catch (DataIntegrityViolationException e) {
            if (weeks.existsByStudyIdAndTitle(studyId, title)) {
                throw new DuplicateWeekException(studyId, title, e);
            }
            throw e;
        }
    }

    /**
     * Saves a week whose files the browser sent straight to the storage on this application's grants (profile
     * {@code localstack}): the grants are confirmed (each object checked against what was announced, copied under
     * this application's key, the staging copy removed) and the week saved, in one transaction; the journal removes
     * the copies if it rolls back.
     *
     * @param studyId the study, whose caller key the grants were granted to ({@link #caller(long)})
     * @param form the week's fields, already validated
     * @param grantIds the grants of the week's files, in the order they are to be listed
     * @return the saved week, with its attachments
     * @throws DuplicateWeekException when the study already has a week with this title; nothing is confirmed
     * @throws io.github.boundedupload.direct.GrantRefusedException when a grant is not the study's
     * @throws io.github.boundedupload.UploadException when an object is missing or unlike its grant; nothing is saved
     */
    public StudyWeek createDirect(long studyId, NewWeek form, List<String> grantIds) {
        DirectUploads uploads = direct.getIfAvailable();
        if (uploads == null) {
            throw new IllegalStateException("direct uploads are off (bounded-upload.direct.enabled)");
        }
        String title = form.title().strip();
        if (weeks.existsByStudyIdAndTitle(studyId, title)) {
            throw new DuplicateWeekException(studyId, title, null);
        }
        try {
            return transaction.execute(status -> {
                BatchResult confirmed = uploads.confirm(caller(studyId), grantIds,
                        Map.of(STUDY_ID, Long.toString(studyId)));
                return weeks.saveAndFlush(week(studyId, title, form, confirmed));
            });
        } catch (DataIntegrityViolationException e) {
            if (weeks.existsByStudyIdAndTitle(studyId, title)) {
                throw new DuplicateWeekException(studyId, title, e);
            }
            throw e;
        }
    }

    /**
     * Whether direct uploads are on ({@code bounded-upload.direct.enabled}).
     *
     * @return whether {@link #createDirect} can be called
     */
    public boolean directUploads() {
        return direct.getIfAvailable() != null;
    }

    /**
     * The caller key of a study's grants: grants are bound to it, counted against it, and confirmed only for it. This
     * example has no users; an application with users binds grants to the user (or the tenant) instead.
     *
     * @param studyId the study
     * @return its caller key
     */
    public static String caller(long studyId) {
        return "study-" + studyId;
    }

    /** A deferred file ended: the week lists it stored or failed (heard once, on the instance that recorded it). */
    @EventListener
    void on(DeferredUploadEvent event) {
        weeks.recordOutcome(event.attachment().key(), event.attachment().state().name());
    }

    private StudyWeek newWeek(long studyId, String title, NewWeek form) {
        return new StudyWeek(studyId, title, form.content() == null ? "" : form.content(),
                // Databases keep microseconds: the week returned now must equal the week read back later.
                form.startDate(), form.endDate(), clock.instant().truncatedTo(ChronoUnit.MICROS));
    }

    private StudyWeek week(long studyId, String title, NewWeek form, BatchResult uploaded) {
        StudyWeek week = newWeek(studyId, title, form);
        for (UploadResult result : uploaded.results()) { // input order
            StoredObject stored = result.storedObject().orElseThrow();
            week.addAttachment(result.attachment().fileName(), stored.size(), stored.key());
        }
        return week;
    }

    /**
     * A week of a study, with its attachments.
     *
     * @param studyId the study
     * @param weekId the week
     * @return the week
     * @throws WeekNotFoundException when the study has no such week
     */
    public StudyWeek find(long studyId, long weekId) {
        StudyWeek week = weeks.findByIdAndStudyId(weekId, studyId)
                .orElseThrow(() -> new WeekNotFoundException("Study " + studyId + " has no week " + weekId + "."));
        readPendingOutcomes(week);
        return week;
    }

    /**
     * The weeks of a study, latest first, with their attachments.
     *
     * @param studyId the study
     * @return its weeks; empty when it has none (a study exists as soon as it has a week)
     */
    public List<StudyWeek> list(long studyId) {
        List<StudyWeek> list = weeks.findByStudyIdOrderByStartDateDescIdDesc(studyId);
        list.forEach(this::readPendingOutcomes);
        return list;
    }

    private void readPendingOutcomes(StudyWeek week) {
        // An outcome whose event was not heard (the instance that recorded it died right after): read it, once per
        // deferred batch (a week's files share one).
        Map<String, Map<String, DeferredAttachment.State>> outcomes = new HashMap<>();
        for (WeekAttachment attachment : week.getAttachments()) {
            if (attachment.getState() == DeferredAttachment.State.PENDING) {
                DeferredAttachment.State state = outcomes.computeIfAbsent(attachment.getDeferredBatch(),
                        batch -> deferred.attachments(batch).stream().collect(
                                Collectors.toMap(DeferredAttachment::key, DeferredAttachment::state)))
                        .get(attachment.getStorageKey());
                if (state != null) {
                    attachment.setState(state);
                }
            }
        }
    }

    /**
     * An attachment of a week.
     *
     * @param studyId the study
     * @param weekId the week
     * @param attachmentId the attachment
     * @return the attachment
     * @throws WeekNotFoundException when there is no such attachment
     */
    public WeekAttachment findAttachment(long studyId, long weekId, long attachmentId) {
        return find(studyId, weekId).getAttachments().stream()
                .filter(attachment -> attachment.getId() == attachmentId)
                .findFirst()
                .orElseThrow(() -> new WeekNotFoundException("Week " + weekId + " of study " + studyId
                        + " has no attachment " + attachmentId + "."));
    }
}
