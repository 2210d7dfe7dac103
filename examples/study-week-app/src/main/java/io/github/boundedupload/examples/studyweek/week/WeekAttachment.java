package io.github.boundedupload.examples.studyweek.week;

import io.github.boundedupload.jdbc.DeferredAttachment;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/**
 * A file of a week: its name as the client sent it (shown and offered on download, never used as a path) and the
 * storage key the uploader chose for it. Changes when what is stored of a week's file changes.
 */
@Entity
@Table(name = "week_attachment")
public class WeekAttachment {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "week_id", nullable = false)
    private StudyWeek week;

    @Column(nullable = false)
    private int position;

    @Column(nullable = false, length = 1_000)
    private String fileName;

    @Column(nullable = false)
    private long size;

    @Column(nullable = false, unique = true, length = 1_024)
    private String storageKey;

    /** STORED; or, for a week created deferred, PENDING until its upload ends (then STORED or FAILED). */
    @Column(nullable = false, length = 16)
    private String state = DeferredAttachment.State.STORED.name();

    /** The deferred batch the file was handed to, for a week created deferred. */
    @Column(length = 36)
    private String deferredBatch;

    protected WeekAttachment() {
        // for JPA
    }

    WeekAttachment(StudyWeek week, int position, String fileName, long size, String storageKey) {
        this.week = week;
        this.position = position;
        this.fileName = fileName;
        this.size = size;
        this.storageKey = storageKey;
    }

    public Long getId() {
        return id;
    }

    public int getPosition() {
        return position;
    }

    public String getFileName() {
        return fileName;
    }

    public long getSize() {
        return size;
    }

    public String getStorageKey() {
        return storageKey;
    }

    public DeferredAttachment.State getState() {
        return DeferredAttachment.State.valueOf(state);
    }

    void setState(DeferredAttachment.State state) {
        this.state = state.name();
    }

    public String getDeferredBatch() {
        return deferredBatch;
    }

    void setDeferredBatch(String deferredBatch) {
        this.deferredBatch = deferredBatch;
    }
}
