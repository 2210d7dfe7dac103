package io.github.boundedupload.examples.studyweek.week;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/** The weeks, with their attachments. Changes when a query of the weeks changes. */
public interface StudyWeekRepository extends JpaRepository<StudyWeek, Long> {

    /**
     * A week of a study, with its attachments loaded (the session is closed when the controller renders it:
     * {@code spring.jpa.open-in-view} is off).
     *
     * @param id the week's id
     * @param studyId the study it must belong to
     * @return the week, or empty when the study has no such week
     */
    @EntityGraph(attributePaths = "attachments")
    Optional<StudyWeek> findByIdAndStudyId(long id, long studyId);

    /**
     * The weeks of a study, latest first, with their attachments loaded. All of them: a study has a few dozen.
     *
     * @param studyId the study
     * @return its weeks, by start date, then creation, latest first
     */
    @EntityGraph(attributePaths = "attachments")
    List<StudyWeek> findByStudyIdOrderByStartDateDescIdDesc(long studyId);

    /**
     * Whether a study already has a week with this title.
     *
     * @param studyId the study
     * @param title the title
     * @return whether it has
     */
    boolean existsByStudyIdAndTitle(long studyId, String title);

    /**
     * The number of weeks of a study.
     *
     * @param studyId the study
     * @return the count
     */
    long countByStudyId(long studyId);

    /**
     * Records how a deferred file ended, if it is still pending.
     *
     * @param storageKey the file's key
     * @param state STORED or FAILED
     * @return the number of files updated
     */
    @Modifying
    @Transactional
    @Query("update WeekAttachment a set a.state = :state where a.storageKey = :storageKey and a.state = 'PENDING'")
    int recordOutcome(@Param("storageKey") String storageKey, @Param("state") String state);
}
