package io.github.boundedupload.examples.studyweek.progress;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Logs each request's uploads: one INFO line per request (its batch), each file at DEBUG, a failed file at WARN.
 * These lines are written on the uploader's threads, and still carry the request id: the starter copies the request
 * thread's MDC to them. Keys and sizes only, never locations (which may be presigned URLs). Files are counted from 1.
 * Changes when what is logged of a request's uploads changes.
 */
@Component
class UploadLog implements UploadListener {

    private static final Logger LOG = LoggerFactory.getLogger(UploadLog.class);

    @Override
    public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
        LOG.debug("stored file {} ({} bytes) as {} in {} ms", upload.index() + 1, stored.size(), stored.key(),
                took.toMillis());
    }

    @Override
    public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
        LOG.warn("file {} failed after {} ms: {}", upload.index() + 1, took.toMillis(), failure.toString());
    }

    @Override
    public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
        LOG.info("upload of {} file(s): {} stored in {} ms", batch.size(), result.storedObjects().size(), took.toMillis());
    }
}
