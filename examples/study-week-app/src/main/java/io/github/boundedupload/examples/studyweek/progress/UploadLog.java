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
 * Logs each upload. These lines are written on the uploader's threads, and still carry the request id: the starter
 * copies the request thread's MDC to them. Keys and sizes only, never locations (which may be presigned URLs).
 */
@Component
class UploadLog implements UploadListener {

    private static final Logger LOG = LoggerFactory.getLogger(UploadLog.class);

    @Override
    public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
        LOG.info("stored file #{} ({} bytes) as {} in {} ms", upload.index(), stored.size(), stored.key(),
                took.toMillis());
    }

    @Override
    public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
        LOG.warn("file #{} failed after {} ms: {}", upload.index(), took.toMillis(), failure.toString());
    }

    @Override
    public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
        LOG.info("batch of {} finished in {} ms, {} stored", batch.size(), took.toMillis(),
                result.storedObjects().size());
    }
}
