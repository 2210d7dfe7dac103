package io.github.boundedupload.examples.studyweek.progress;

import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The progress of a running upload request, which the page polls while its request is in flight. Changes when what the
 * page can read of a running request's progress changes.
 */
@RestController
class ProgressController {

    private final UploadProgress progress;

    ProgressController(UploadProgress progress) {
        this.progress = progress;
    }

    /**
     * The files of a running request.
     *
     * @param uploadId the id the client sent in {@value UploadProgress#HEADER}: its secret, 128 random bits
     * @return 200 with each file's progress, or 404 when no such request is running (not started, or finished); not
     *         to be cached anywhere
     */
    @GetMapping("/api/uploads/{uploadId}")
    ResponseEntity<List<UploadProgress.FileProgress>> progress(@PathVariable String uploadId) {
        return progress.progress(uploadId)
                .map(files -> ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(files))
                .orElseGet(() -> ResponseEntity.notFound().cacheControl(CacheControl.noStore()).build());
    }
}
