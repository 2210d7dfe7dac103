package io.github.boundedupload.jdbc.internal;

import com.github.kagkarlsson.scheduler.task.Execution;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What one run of a journal task owns: its db-scheduler execution, at the version it was picked with. db-scheduler
 * raises the version whenever the execution changes hands (an instance taken for dead has its run revived, and picked
 * by another), so a run whose version is no longer the execution's has been taken over: it must not act any more.
 * Asked before each step that writes or deletes. Changes when how a task run proves it still owns its work changes.
 */
public final class RunFence {

    private final TaskHost host;
    private final String task;
    private final String id;
    private final long version;

    RunFence(TaskHost host, Execution execution) {
        this.host = host;
        this.task = execution.taskInstance.getTaskName();
        this.id = execution.taskInstance.getId();
        this.version = execution.version;
    }

    /** Whether this run still owns its execution, read in {@code c}'s transaction. */
    public boolean holds(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM bounded_upload_task WHERE task_name = ? AND"
                + " task_instance = ? AND version = ? AND picked = ?")) {
            s.setString(1, task);
            s.setString(2, id);
            s.setLong(3, version);
            s.setBoolean(4, true);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /** Whether this run still owns its execution, read in a transaction of its own. */
    public boolean holds() {
        return host.inOwnTransaction("check that the run of " + task + " " + id + " is still this instance's",
                this::holds);
    }

    /**
     * Reports a step not taken because the execution is another instance's now.
     *
     * @param what what was not done
     */
    public void notDone(String what) {
        host.fencing().notDone(what + ": " + task + " " + id + " was taken over by another instance while this one"
                + " was paused or cut off");
    }

    @Override
    public String toString() {
        return task + " " + id + " at version " + version;
    }
}
