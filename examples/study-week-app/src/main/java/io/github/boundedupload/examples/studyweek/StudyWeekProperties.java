package io.github.boundedupload.examples.studyweek;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The application's own settings ({@code study-week.*}). Changes when the application's own settings change.
 *
 * @param dataDir where the H2 database and the local storage keep their files
 * @param retryAfter what a client is told to wait, in {@code Retry-After}, when the uploader is saturated
 * @param maxFiles the most files a week takes: the one setting behind the uploader's batch limit and the server's
 *        multipart part count ({@code web.RequestLimits})
 * @param maxFileSize the largest file a week takes: the one setting behind the uploader's size limit and the server's
 *        multipart file and request sizes ({@code web.RequestLimits})
 * @param s3 settings for the S3 storage
 */
@ConfigurationProperties("study-week")
public record StudyWeekProperties(@DefaultValue("./data") Path dataDir, @DefaultValue("5s") Duration retryAfter,
        @DefaultValue("10") int maxFiles, @DefaultValue("10MB") DataSize maxFileSize, @DefaultValue S3 s3) {

    /**
     * Settings for the S3 storage.
     *
     * @param createBucket whether to create {@code bounded-upload.s3.bucket} at start-up when it is missing (for
     *        LocalStack, which starts empty), and give it the CORS rule that lets the page send files to it
     * @param pageOrigin the page's origin ({@code scheme://host:port}) that the CORS rule lets send files straight to
     *        the bucket
     */
    public record S3(@DefaultValue("false") boolean createBucket,
            @DefaultValue("http://localhost:8080") String pageOrigin) {
    }
}
