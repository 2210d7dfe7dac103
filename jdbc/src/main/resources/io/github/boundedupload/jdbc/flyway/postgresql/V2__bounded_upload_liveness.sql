-- bounded-upload's journal on PostgreSQL, version 2: which live instance runs each batch. A Flyway migration (location
-- classpath:io/github/boundedupload/jdbc/flyway/postgresql), the SQL of the Liquibase changelog, and what
-- JdbcUploadJournal.Builder.createTables(true) runs after version 1. Instances of version 1 keep working on it: they
-- leave session_id empty, and their batches are recovered by their lease, as before.

-- The session of the journal instance that runs an open batch: when that session stops beating, the batch is removed
-- without waiting for its lease. Empty for batches of instances older than version 2.
ALTER TABLE bounded_upload_batch ADD COLUMN IF NOT EXISTS session_id VARCHAR(36);

-- One row per live journal session (one per running journal instance). beat_at is the database's clock, in epoch
-- milliseconds, at the session's last heartbeat; a session that has not beaten for the liveness timeout is removed, and
-- its batches are removed from the storage by a live instance.
CREATE TABLE IF NOT EXISTS bounded_upload_instance (
  session_id VARCHAR(36)  NOT NULL PRIMARY KEY,
  name       VARCHAR(200) NOT NULL,
  started_at BIGINT       NOT NULL,
  beat_at    BIGINT       NOT NULL
);

-- Whether a deferred attachment was stored under a key: asked for each key an instance takes back after it lost a
-- batch (it never removes what a deferred attachment stored).
CREATE INDEX IF NOT EXISTS bounded_upload_deferred_key_idx ON bounded_upload_deferred (object_key);
