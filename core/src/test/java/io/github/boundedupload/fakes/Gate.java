package io.github.boundedupload.fakes;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Holds uploads until the test opens it. Waiting is interruptible, like real I/O the uploader can cancel. */
public final class Gate {

    private final CountDownLatch open = new CountDownLatch(1);

    public void open() {
        open.countDown();
    }

    /** Waits until opened; a stuck test fails after a minute instead of hanging the build. */
    public void pass() throws InterruptedException {
        if (!open.await(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("gate never opened");
        }
    }
}
