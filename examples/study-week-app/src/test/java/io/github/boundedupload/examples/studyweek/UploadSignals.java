package io.github.boundedupload.examples.studyweek;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Tells a test when the uploader has stored files, whatever the storage: a listener (the starter adds it to the
 * uploader) that counts a latch down. It never blocks an upload.
 */
class UploadSignals implements UploadListener {

    private volatile CountDownLatch stored = new CountDownLatch(0);

    /** Starts counting stored files from now. */
    void expectStored(int files) {
        stored = new CountDownLatch(files);
    }

    /** Waits until the expected number of files are stored. */
    void awaitStored() throws InterruptedException {
        if (!stored.await(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the files were not stored within 30 s");
        }
    }

    @Override
    public void uploadSucceeded(UploadEvent upload, StoredObject object, Duration took) {
        stored.countDown();
    }
}
