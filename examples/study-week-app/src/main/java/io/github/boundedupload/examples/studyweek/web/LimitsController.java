package io.github.boundedupload.examples.studyweek.web;

import io.github.boundedupload.autoconfigure.BoundedUploadProperties;
import io.github.boundedupload.examples.studyweek.StudyWeekProperties;
import io.github.boundedupload.examples.studyweek.week.WeekService;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The week's limits, for the page to tell the user before the upload, in the words the refusals use. Changes when which
 * limits the page is told, or in which words, changes.
 */
@RestController
class LimitsController {

    private final StudyWeekProperties properties;
    private final WeekService weeks;
    private final BoundedUploadProperties uploads;

    LimitsController(StudyWeekProperties properties, WeekService weeks, BoundedUploadProperties uploads) {
        this.properties = properties;
        this.weeks = weeks;
        this.uploads = uploads;
    }

    /**
     * The limits.
     *
     * @param maxFiles the most files a week takes
     * @param maxFileSize the largest file, in bytes
     * @param text both, as a sentence
     * @param direct whether files may be sent straight to the storage (direct uploads are on)
     * @param directPartsAbove the size above which a file sent straight to S3 goes in parts, without a checksum
     */
    record Limits(int maxFiles, long maxFileSize, String text, boolean direct, long directPartsAbove) {
    }

    @GetMapping("/api/limits")
    Limits limits() {
        return new Limits(properties.maxFiles(), properties.maxFileSize().toBytes(), "Up to " + properties.maxFiles()
                + " files, each at most " + ApiExceptionHandler.size(properties.maxFileSize()) + ".", weeks.directUploads(),
                uploads.getDirect().getPartsAbove().toBytes());
    }
}
