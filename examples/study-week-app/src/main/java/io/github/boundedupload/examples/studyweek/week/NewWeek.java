package io.github.boundedupload.examples.studyweek.week;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.LocalDate;
import org.springframework.format.annotation.DateTimeFormat;

/**
 * The form fields of a new week, checked before any file is uploaded. Changes when a form field of a new week, or its
 * check, changes.
 *
 * @param title the week's title, unique within its study
 * @param content what the week is about
 * @param startDate the first day, {@code yyyy-MM-dd}
 * @param endDate the last day, {@code yyyy-MM-dd}
 */
public record NewWeek(
        @NotBlank @Size(max = 100) String title,
        @Size(max = 10_000) String content,
        @NotNull @DateTimeFormat(iso = DateTimeFormat.ISO.DATE) LocalDate startDate,
        @NotNull @DateTimeFormat(iso = DateTimeFormat.ISO.DATE) LocalDate endDate) {

    /**
     * Whether the week ends on or after the day it starts.
     *
     * @return {@code true} when the dates are in order (or missing, which {@code @NotNull} reports)
     */
    @AssertTrue(message = "must not be before startDate")
    public boolean isEndDate() {
        return startDate == null || endDate == null || !endDate.isBefore(startDate);
    }
}
