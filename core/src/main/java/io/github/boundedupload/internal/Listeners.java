package io.github.boundedupload.internal;

import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploaderEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls every configured listener in order; a listener that throws is logged and cannot break an upload. Changes when
 * the listener SPI changes.
 */
final class Listeners implements UploadListener {

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentAttachmentUploader.class);

    /** An array, not a list: iterating it allocates nothing, where a list's iterator did per upload. */
    private final UploadListener[] listeners;

    Listeners(List<UploadListener> listeners) {
        this.listeners = List.copyOf(listeners).toArray(UploadListener[]::new);
    }

    private void each(String callback, Consumer<UploadListener> call) {
        for (UploadListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                LOG.warn("upload listener {} failed in {}", listener.getClass().getName(), callback, e);
            }
        }
    }

    @Override
    public void uploaderCreated(UploaderEvent uploader, Executor executor) {
        each("uploaderCreated", l -> l.uploaderCreated(uploader, executor));
    }

    @Override
    public void uploaderClosed(UploaderEvent uploader) {
        each("uploaderClosed", l -> l.uploaderClosed(uploader));
    }

    @Override
    public void batchStarted(BatchEvent batch) {
        each("batchStarted", l -> l.batchStarted(batch));
    }

    @Override
    public void batchRejected(BatchEvent batch, UploaderSaturatedException exception) {
        each("batchRejected", l -> l.batchRejected(batch, exception));
    }

    @Override
    public void uploadStarted(UploadEvent upload, Duration queued) {
        each("uploadStarted", l -> l.uploadStarted(upload, queued));
    }

    @Override
    public void bytesSent(UploadEvent upload, long bytesSoFar) {
        each("bytesSent", l -> l.bytesSent(upload, bytesSoFar));
    }

    @Override
    public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
        each("uploadSucceeded", l -> l.uploadSucceeded(upload, stored, took));
    }

    @Override
    public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
        each("uploadFailed", l -> l.uploadFailed(upload, failure, took));
    }

    @Override
    public void uploadSkipped(UploadEvent upload, Throwable reason) {
        each("uploadSkipped", l -> l.uploadSkipped(upload, reason));
    }

    @Override
    public void uploadRolledBack(UploadEvent upload, StoredObject stored, @Nullable Throwable failure) {
        each("uploadRolledBack", l -> l.uploadRolledBack(upload, stored, failure));
    }

    @Override
    public void rollbackRetried(UploadEvent upload, Throwable failure, Duration retryIn) {
        each("rollbackRetried", l -> l.rollbackRetried(upload, failure, retryIn));
    }

    @Override
    public void rollbackAbandoned(UploadEvent upload, Throwable failure) {
        each("rollbackAbandoned", l -> l.rollbackAbandoned(upload, failure));
    }

    @Override
    public void uploadStuck(UploadEvent upload) {
        each("uploadStuck", l -> l.uploadStuck(upload));
    }

    @Override
    public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
        each("batchFinished", l -> l.batchFinished(batch, result, took));
    }

    @Override
    public void batchSettled(BatchEvent batch, BatchResult result) {
        each("batchSettled", l -> l.batchSettled(batch, result));
    }
}
