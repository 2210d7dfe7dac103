/**
 * An upload journal in the application's own database ({@link io.github.boundedupload.jdbc.JdbcUploadJournal}):
 * what a batch stored is removed after a crash, an outage of the storage, or a rollback of the caller's transaction, by
 * whichever instance of the application is alive. Durable, cluster-safe tasks run on
 * <a href="https://github.com/kagkarlsson/db-scheduler">db-scheduler</a>.
 */
@NullMarked
package io.github.boundedupload.jdbc;

import org.jspecify.annotations.NullMarked;
