package io.github.boundedupload.examples.studyweek.week;

/**
 * The study has no such week, or the week no such attachment. Changes when what the API answers as not found changes.
 */
public class WeekNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    WeekNotFoundException(String message) {
        super(message);
    }
}
