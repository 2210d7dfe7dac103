package io.github.boundedupload.examples.studyweek.week;

/** The study already has a week with this title. Changes when what makes a week a duplicate changes. */
public class DuplicateWeekException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    DuplicateWeekException(long studyId, String title, Throwable cause) {
        super("Study " + studyId + " already has a week titled '" + title + "'.", cause);
    }
}
