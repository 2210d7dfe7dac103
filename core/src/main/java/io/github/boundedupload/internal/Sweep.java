package io.github.boundedupload.internal;

import io.github.boundedupload.UploaderConfig;

/**
 * Batch deadlines and upload timeouts, checked by one periodic task instead of a timer per upload: scheduling and
 * cancelling a timer for every upload cost more than the rest of the uploader's own work (a timer thread woken, a
 * heap of timers re-ordered, twice per upload). The task runs every twentieth of the shorter of the two timeouts (at
 * least every second, at most every 5 ms), only while batches run, so a timeout fires at most that much late.
 * Each step only finds what is due; the batch or the upload handles it afterwards. State is guarded by the
 * dispatcher's lock. Changes when the way timeouts are watched changes.
 */
final class Sweep {

    private static final long MIN_PERIOD = 5_000_000L;
    private static final long MAX_PERIOD = 1_000_000_000L;

    private final Engine engine;
    private final long period;
    private boolean scheduled;
    private Runnable cancel = () -> { };

    Sweep(Engine engine) {
        this.engine = engine;
        UploaderConfig config = engine.config;
        long shortest = Math.min(config.uploadTimeout().toNanos(), config.batchTimeout().toNanos());
        this.period = Math.max(MIN_PERIOD, Math.min(MAX_PERIOD, shortest / 20));
    }

    /** Under the lock: a batch was admitted; make sure the sweep runs. */
    void start() {
        if (!scheduled) {
            scheduled = true;
            cancel = engine.timeouts.every(period, this::run);
        }
    }

    private void run() {
        engine.steps.run(effects -> {
            if (engine.running.isEmpty()) {
                scheduled = false;
                cancel.run();
                return;
            }
            long now = engine.ticker.nanoTime();
            for (Batch batch : engine.running) {
                if (batch.deadlineDue(now)) {
                    effects.add(batch::timeOut);
                }
            }
            engine.queue.forEachRunning(call -> {
                if (call instanceof Upload && ((Upload) call).timeoutDue(now)) {
                    effects.add(((Upload) call)::timeOut);
                }
            });
        });
    }
}
