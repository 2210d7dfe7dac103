package io.github.boundedupload.examples.studyweek.progress;

import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** The progress of a running upload request, which the page polls while its request is in flight. */
@RestController
class ProgressController {

    private final UploadProgress progress;

    ProgressController(UploadProgress progress) {
        this.progress = progress;
    }

    /**
     * The files of a running request.
     *
     * @param uploadId the id the client sent in {@value UploadProgress#HEADER}
     * @return 200 with each file's progress, or 404 when no such request is running (not started, or finished)
     */
    @GetMapping("/api/uploads/{uploadId}")
    ResponseEntity<List<UploadProgress.FileProgress>> progress(@PathVariable String uploadId) {
        return ResponseEntity.of(progress.progress(uploadId));
    }
}
