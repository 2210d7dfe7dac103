package io.github.boundedupload.jdbc.internal;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.support.SafeText;
import io.github.boundedupload.support.Threads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * Whether this journal instance is alive, as the database judges it. Each running instance has a session, a row of
 * {@code bounded_upload_instance} whose heartbeat the database's own clock stamps every heartbeat interval; a session
 * that has not beaten for the liveness timeout, by that clock, is declared dead by whichever instance looks (its row
 * removed), and its open batches are then removed by a live instance without waiting for their lease.
 *
 * <p>This instance knows that it is alive without asking the database for as long as its last heartbeat, measured on
 * its own monotonic clock from before that heartbeat was sent, is younger than the timeout minus two intervals: the
 * database cannot have declared it dead before then. When that is not known (the process was paused, the database is
 * slow or cut off), {@link #alive} asks: a heartbeat renews it, or finds the session declared dead. Then everything that
 * session ran belongs to other instances now; it is never acted on again, and the instance goes on under a new session.
 * Changes when how an instance proves it is alive, or how the fleet judges it, changes.
 */
public final class Liveness implements AutoCloseable {

    private final TaskHost host;
    private final Schema.Database database;
    private final String name;
    private final Duration timeout;
    private final long validNanos;
    private final Fencing fencing;
    private final ScheduledExecutorService beats;
    private final AtomicBoolean failing = new AtomicBoolean();
    /** When a heartbeat last failed (System.nanoTime): for a second after, nobody waits for the database again. */
    private volatile long failedAt = System.nanoTime() - TimeUnit.SECONDS.toNanos(2);
    private volatile Session session;
    private volatile boolean closed;
    private volatile BiConsumer<String, String> lost = (session, why) -> { };

    /** A session of this instance, and until when (System.nanoTime) it is known to be alive. */
    private static final class Session {
        final String id;
        volatile long validUntil;
        /** Whether its loss was told to the listener already. */
        boolean lostTold;

        Session(String id, long validUntil) {
            this.id = id;
            this.validUntil = validUntil;
        }
    }

    /**
     * Registers a session in the database, and starts beating for it every {@code interval}.
     *
     * @throws UploadException when the database cannot be written
     */
    public Liveness(TaskHost host, String name, Duration interval, Duration timeout, Fencing fencing) {
        this.host = host;
        this.database = host.database();
        this.name = name;
        this.timeout = timeout;
        this.validNanos = timeout.minus(interval.multipliedBy(2)).toNanos();
        this.fencing = fencing;
        this.session = register();
        this.beats = Executors.newSingleThreadScheduledExecutor(Threads.platform("bounded-upload-journal-heartbeat",
                true));
        long every = interval.toMillis();
        beats.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Tells {@code listener} (session, why) when a session is lost: declared dead by the fleet, or not known to be
     * alive any more because the database did not answer its heartbeats (it may be declared dead any moment). Once per
     * session; on the thread that found out.
     */
    public void whenLost(BiConsumer<String, String> listener) {
        this.lost = listener;
    }

    /** The executor of the heartbeats: one thread, for short work of the journal's own that must not hold a caller. */
    ScheduledExecutorService background() {
        return beats;
    }

    /**
     * The session new batches are begun under: the current one, renewed first when it is not known to be alive.
     *
     * @throws UploadException when the database cannot confirm it
     */
    public String session() {
        Session current = session;
        if (valid(current)) {
            return current.id;
        }
        synchronized (this) {
            if (!valid(session)) {
                renew(session); // renewed, or found dead and replaced by a new session
            }
            Session now = session;
            if (!closed && valid(now)) {
                return now.id;
            }
        }
        throw new UploadException("upload journal: could not confirm in the database that this instance is alive, so"
                + " it begins no batch", null);
    }

    private static boolean valid(Session session) {
        return System.nanoTime() - session.validUntil < 0;
    }

    /**
     * Whether the session {@code id} is this instance's current one and alive: cheap while it is known to be, a
     * heartbeat when it is not. False for a session declared dead, and when the database cannot confirm it: then other
     * instances may have taken over what it runs, or will.
     */
    public boolean alive(String id) {
        Session current = session;
        if (closed || !current.id.equals(id)) {
            return false;
        }
        if (valid(current)) {
            return true;
        }
        if (System.nanoTime() - failedAt < TimeUnit.SECONDS.toNanos(1)) {
            return false; // the database did not answer a moment ago: no thread waits for it again so soon
        }
        synchronized (this) {
            Session now = session;
            return now.id.equals(id) && renew(now) && session == now;
        }
    }

    private void beat() {
        if (closed) {
            return;
        }
        synchronized (this) {
            Session current = session;
            if (!renew(current) && current == session && !valid(current)) {
                tellLost(current, "its heartbeats did not reach the database for longer than it can vouch for");
            }
        }
    }

    private void tellLost(Session lostSession, String why) {
        if (!lostSession.lostTold) {
            lostSession.lostTold = true;
            lost.accept(lostSession.id, why);
        }
    }

    /**
     * A heartbeat for {@code current}: true when it is alive for another timeout. A session found declared dead is
     * replaced by a new one (false: what it ran is other instances' now).
     */
    private boolean renew(Session current) {
        long sent = System.nanoTime();
        int beaten;
        try {
            beaten = host.inOwnTransaction("send a heartbeat", c -> {
                try (PreparedStatement s = c.prepareStatement("UPDATE bounded_upload_instance SET beat_at = "
                        + database.nowMillis() + " WHERE session_id = ?")) {
                    s.setString(1, current.id);
                    return s.executeUpdate();
                }
            });
        } catch (RuntimeException e) {
            failedAt = System.nanoTime();
            if (failing.compareAndSet(false, true)) {
                LOG.warn("upload journal: instance {} could not send its heartbeat; its uploads stop acting on the"
                        + " storage if the database does not answer within the liveness timeout of {}: {}", name,
                        timeout, SafeText.describe(e));
            }
            return false;
        }
        if (failing.compareAndSet(true, false)) {
            LOG.info("upload journal: instance {} sends its heartbeats again", name);
        }
        if (beaten == 1) {
            current.validUntil = sent + validNanos;
            return true;
        }
        fencing.declaredDead(name, timeout);
        try {
            session = register();
        } catch (RuntimeException e) {
            LOG.warn("upload journal: instance {} could not begin a new session: {}", name, SafeText.describe(e));
        }
        tellLost(current, "the fleet declared this instance dead");
        return false;
    }

    private Session register() {
        String id = UUID.randomUUID().toString();
        long sent = System.nanoTime();
        host.runInOwnTransaction("register instance " + name + " (the journal's tables need its version-2"
                + " migration, V2__bounded_upload_liveness.sql)", c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO bounded_upload_instance (session_id, name,"
                    + " started_at, beat_at) VALUES (?, ?, ?, " + database.nowMillis() + ")")) {
                s.setString(1, id);
                s.setString(2, name);
                s.setLong(3, System.currentTimeMillis());
                s.executeUpdate();
            }
        });
        return new Session(id, sent + validNanos);
    }

    /**
     * The recurring recovery, on one instance at a time: declares dead every session that has not beaten for the
     * liveness timeout, by the database's clock, and says so.
     */
    public void declareDead() {
        List<String[]> dead = host.inOwnTransaction("find instances that stopped beating", c -> {
            List<String[]> found = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT session_id, name FROM bounded_upload_instance"
                    + " WHERE beat_at < " + database.nowMillis() + " - ?")) {
                s.setLong(1, timeout.toMillis());
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        found.add(new String[] {r.getString(1), r.getString(2)});
                    }
                }
            }
            return found;
        });
        for (String[] session : dead) {
            int removed = host.inOwnTransaction("declare instance " + session[1] + " dead",
                    c -> remove(c, session[0], true));
            if (removed == 1) {
                LOG.info("upload journal: instance {} sent no heartbeat for {} (the database's clock); it counts as"
                        + " dead, and what it ran is removed now", session[1], timeout);
            }
        }
    }

    private int remove(Connection c, String id, boolean onlyIfSilent) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM bounded_upload_instance WHERE session_id = ?"
                + (onlyIfSilent ? " AND beat_at < " + database.nowMillis() + " - ?" : ""))) {
            s.setString(1, id);
            if (onlyIfSilent) {
                s.setLong(2, timeout.toMillis());
            }
            return s.executeUpdate();
        }
    }

    /**
     * Stops beating, and ends the session: a batch it still holds (a caller that never committed) is removed at the
     * next recovery instead of when its lease ends.
     */
    @Override
    public void close() {
        closed = true;
        beats.shutdown();
        try {
            beats.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            String id = session.id;
            host.runInOwnTransaction("end the session of instance " + name, c -> remove(c, id, false));
        } catch (RuntimeException e) {
            LOG.warn("upload journal: instance {} could not end its session; it counts as dead after {}: {}", name,
                    timeout, SafeText.describe(e));
        }
    }
}
