package io.github.boundedupload.jdbc.internal;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this instance did not do because another instance had taken its work over: it was paused, or cut off from the
 * database, for longer than the liveness timeout (or a task's dead-run timeout), and the fleet gave its work to a live
 * instance. Each such step is counted and logged at WARN with what was not done, so that an operator can see a stale
 * owner that was stopped in time. Changes when what a stale owner reports changes.
 */
public final class Fencing {

    private final AtomicLong fenced = new AtomicLong();

    /** Steps not taken since this instance started. */
    public long count() {
        return fenced.get();
    }

    /**
     * A step not taken: {@code what} says what was not done, and why it belongs to someone else now.
     *
     * @param what what this instance did not do, safe to log
     */
    public void notDone(String what) {
        fenced.incrementAndGet();
        LOG.warn("upload journal: {}", what);
    }

    /** This instance's session was declared dead: everything it ran is other instances' now. */
    void declaredDead(String instance, Duration timeout) {
        notDone("instance " + instance + " was declared dead by the fleet (no heartbeat for " + timeout + " by the"
                + " database's clock: it was paused or cut off), and what it ran was taken over; it acts on none of"
                + " that any more, and goes on under a new session");
    }
}
