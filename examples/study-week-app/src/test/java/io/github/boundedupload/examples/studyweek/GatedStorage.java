package io.github.boundedupload.examples.studyweek;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.UploadRequest;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The real local storage, with switches for tests: hold uploads until released, require uploads to be in the storage
 * at the same time, or fail one file after the others are stored. Latches only, no sleeps: what a test waits for is
 * signalled, and every wait has a limit so a broken test fails instead of hanging.
 */
final class GatedStorage implements FileUploader {

    private static final long LIMIT_SECONDS = 30;

    private final FileUploader storage;
    private final Semaphore entered = new Semaphore(0);
    private volatile CountDownLatch gate;
    private volatile CyclicBarrier together;
    private volatile String failing;
    private volatile CountDownLatch othersStored;

    GatedStorage(FileUploader storage) {
        this.storage = storage;
    }

    /** Uploads from now on wait in the storage until {@link #release()}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    /** Lets held uploads go on, and later ones through. */
    void release() {
        CountDownLatch held = gate;
        gate = null;
        if (held != null) {
            held.countDown();
        }
    }

    /** Waits until this many uploads have reached the storage since the last {@link #reset()}. */
    void awaitEntered(int uploads) throws InterruptedException {
        if (!entered.tryAcquire(uploads, LIMIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError(uploads + " uploads did not reach the storage within " + LIMIT_SECONDS + " s");
        }
    }

    /** Each upload waits until this many are in the storage at once; if they never are, they fail. */
    void requireTogether(int uploads) {
        together = new CyclicBarrier(uploads);
    }

    /** The upload of this file fails, once the given number of other files are stored. */
    void failAfterOthers(String fileName, int others) {
        othersStored = new CountDownLatch(others);
        failing = fileName;
    }

    /** Back to a plain storage. */
    void reset() {
        release();
        entered.drainPermits();
        together = null;
        failing = null;
        othersStored = null;
    }

    @Override
    public StoredObject upload(UploadRequest request) throws IOException {
        entered.release();
        try {
            CountDownLatch held = gate;
            if (held != null && !held.await(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("the test never released the storage");
            }
            CyclicBarrier barrier = together;
            if (barrier != null) {
                barrier.await(LIMIT_SECONDS, TimeUnit.SECONDS);
            }
            if (request.fileName().equals(failing)) {
                othersStored.await(LIMIT_SECONDS, TimeUnit.SECONDS);
                throw new IOException("injected storage failure for the test");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted in the test storage");
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IOException("the uploads were not in the storage at the same time", e);
        }
        StoredObject stored = storage.upload(request);
        CountDownLatch others = othersStored;
        if (others != null) {
            others.countDown();
        }
        return stored;
    }

    @Override
    public void delete(String key) throws IOException {
        storage.delete(key);
    }
}
