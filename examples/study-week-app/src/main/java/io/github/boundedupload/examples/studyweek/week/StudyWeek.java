package io.github.boundedupload.examples.studyweek.week;

import io.github.boundedupload.jdbc.DeferredAttachment;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One week of a study: what is studied, when, and the files that go with it. Changes when what is stored of a week
 * changes.
 */
@Entity
@Table(name = "study_week",
        // The database has the last word on duplicates: two requests may both pass the service's check.
        uniqueConstraints = @UniqueConstraint(name = "uk_study_week_title", columnNames = { "study_id", "title" }))
public class StudyWeek {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "study_id", nullable = false)
    private long studyId;

    @Column(nullable = false, length = 100)
    private String title;

    @Column(nullable = false, length = 10_000)
    private String content;

    @Column(nullable = false)
    private LocalDate startDate;

    @Column(nullable = false)
    private LocalDate endDate;

    @Column(nullable = false)
    private Instant createdAt;

    @OneToMany(mappedBy = "week", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("position")
    private List<WeekAttachment> attachments = new ArrayList<>();

    protected StudyWeek() {
        // for JPA
    }

    StudyWeek(long studyId, String title, String content, LocalDate startDate, LocalDate endDate, Instant createdAt) {
        this.studyId = studyId;
        this.title = title;
        this.content = content;
        this.startDate = startDate;
        this.endDate = endDate;
        this.createdAt = createdAt;
    }

    void addAttachment(String fileName, long size, String storageKey) {
        attachments.add(new WeekAttachment(this, attachments.size(), fileName, size, storageKey));
    }

    /** A file handed to deferred uploads: PENDING until its upload ends. */
    void addPendingAttachment(String fileName, long size, String storageKey, String deferredBatch) {
        WeekAttachment attachment = new WeekAttachment(this, attachments.size(), fileName, size, storageKey);
        attachment.setState(DeferredAttachment.State.PENDING);
        attachment.setDeferredBatch(deferredBatch);
        attachments.add(attachment);
    }

    public Long getId() {
        return id;
    }

    public long getStudyId() {
        return studyId;
    }

    public String getTitle() {
        return title;
    }

    public String getContent() {
        return content;
    }

    public LocalDate getStartDate() {
        return startDate;
    }

    public LocalDate getEndDate() {
        return endDate;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public List<WeekAttachment> getAttachments() {
        return Collections.unmodifiableList(attachments);
    }
}
