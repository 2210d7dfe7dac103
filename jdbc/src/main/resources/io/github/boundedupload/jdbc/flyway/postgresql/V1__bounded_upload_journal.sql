-- bounded-upload's journal on PostgreSQL, version 1: a Flyway migration (location
-- classpath:io/github/boundedupload/jdbc/flyway/postgresql), the SQL of the Liquibase changelog beside it
-- (liquibase/bounded-upload-journal.xml), and what JdbcUploadJournal.Builder.createTables(true) runs. Idempotent.
-- Times are epoch milliseconds of the instances' clocks.

-- A batch that may have written objects and is not settled yet. OPEN: running, or waiting for the caller's commit,
-- until lease_until. COMPENSATING: being removed by a compensation task (tries failed so far, and why the last did).
CREATE TABLE IF NOT EXISTS bounded_upload_batch (
  id           VARCHAR(36)   NOT NULL PRIMARY KEY,
  uploader     VARCHAR(63)   NOT NULL,
  owner        VARCHAR(200)  NOT NULL,
  state        VARCHAR(16)   NOT NULL,
  created_at   BIGINT        NOT NULL,
  lease_until  BIGINT        NOT NULL,
  tries        INT           NOT NULL,
  last_failure VARCHAR(1000)
);
CREATE INDEX IF NOT EXISTS bounded_upload_batch_lease_idx ON bounded_upload_batch (state, lease_until);

-- Every key such a batch may write. key_hash (SHA-256 of the key) is unique: two unsettled batches never share a key.
CREATE TABLE IF NOT EXISTS bounded_upload_key (
  key_hash   CHAR(64)      NOT NULL PRIMARY KEY,
  batch_id   VARCHAR(36)   NOT NULL REFERENCES bounded_upload_batch (id) ON DELETE CASCADE,
  object_key VARCHAR(1024) NOT NULL
);
CREATE INDEX IF NOT EXISTS bounded_upload_key_batch_idx ON bounded_upload_key (batch_id);

-- db-scheduler's table (its PostgreSQL schema), under a name of its own.
CREATE TABLE IF NOT EXISTS bounded_upload_task (
  task_name            TEXT                     NOT NULL,
  task_instance        TEXT                     NOT NULL,
  task_data            BYTEA,
  execution_time       TIMESTAMP WITH TIME ZONE NOT NULL,
  picked               BOOLEAN                  NOT NULL,
  picked_by            TEXT,
  last_success         TIMESTAMP WITH TIME ZONE,
  last_failure         TIMESTAMP WITH TIME ZONE,
  consecutive_failures INT,
  last_heartbeat       TIMESTAMP WITH TIME ZONE,
  version              BIGINT                   NOT NULL,
  priority             SMALLINT,
  PRIMARY KEY (task_name, task_instance)
);
CREATE INDEX IF NOT EXISTS bounded_upload_task_execution_time_idx ON bounded_upload_task (execution_time);
CREATE INDEX IF NOT EXISTS bounded_upload_task_last_heartbeat_idx ON bounded_upload_task (last_heartbeat);

-- Deferred uploads (DeferredUploads): attachments accepted for upload after the response, their content staged here
-- until stored (then content is null), and their outcome. PENDING, STORED or FAILED (failure says why).
CREATE TABLE IF NOT EXISTS bounded_upload_deferred (
  batch_id     VARCHAR(36)   NOT NULL,
  idx          INT           NOT NULL,
  uploader     VARCHAR(63)   NOT NULL,
  object_key   VARCHAR(1024) NOT NULL,
  file_name    VARCHAR(1024) NOT NULL,
  content_type VARCHAR(255),
  metadata     VARCHAR(4000),
  content_size BIGINT        NOT NULL,
  content      BYTEA,
  ordered      BOOLEAN       NOT NULL,
  state        VARCHAR(16)   NOT NULL,
  created_at   BIGINT        NOT NULL,
  deadline_at  BIGINT        NOT NULL,
  finished_at  BIGINT,
  tries        INT           NOT NULL,
  failure      VARCHAR(1000),
  PRIMARY KEY (batch_id, idx)
);
CREATE INDEX IF NOT EXISTS bounded_upload_deferred_state_idx ON bounded_upload_deferred (state, finished_at);
