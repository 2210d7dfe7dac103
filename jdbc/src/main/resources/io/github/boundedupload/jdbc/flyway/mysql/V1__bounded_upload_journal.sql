-- bounded-upload's journal on MySQL 8 and MariaDB (InnoDB), version 1: a Flyway migration (location
-- classpath:io/github/boundedupload/jdbc/flyway/mysql), the SQL of the Liquibase changelog, and what
-- JdbcUploadJournal.Builder.createTables(true) runs. Idempotent. Times are epoch milliseconds of the instances'
-- clocks; see flyway/postgresql/V1__bounded_upload_journal.sql for what each table holds.

CREATE TABLE IF NOT EXISTS bounded_upload_batch (
  id           VARCHAR(36)   NOT NULL PRIMARY KEY,
  uploader     VARCHAR(63)   NOT NULL,
  owner        VARCHAR(200)  NOT NULL,
  state        VARCHAR(16)   NOT NULL,
  created_at   BIGINT        NOT NULL,
  lease_until  BIGINT        NOT NULL,
  tries        INT           NOT NULL,
  last_failure VARCHAR(1000),
  INDEX bounded_upload_batch_lease_idx (state, lease_until)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS bounded_upload_key (
  key_hash   CHAR(64)      NOT NULL PRIMARY KEY,
  batch_id   VARCHAR(36)   NOT NULL,
  object_key VARCHAR(1024) NOT NULL,
  INDEX bounded_upload_key_batch_idx (batch_id),
  FOREIGN KEY (batch_id) REFERENCES bounded_upload_batch (id) ON DELETE CASCADE
) ENGINE = InnoDB;

-- db-scheduler's table (its MySQL schema), under a name of its own. The journal stores its times in UTC.
CREATE TABLE IF NOT EXISTS bounded_upload_task (
  task_name            VARCHAR(100) NOT NULL,
  task_instance        VARCHAR(100) NOT NULL,
  task_data            BLOB,
  execution_time       TIMESTAMP(6) NOT NULL,
  picked               BOOLEAN      NOT NULL,
  picked_by            VARCHAR(50),
  last_success         TIMESTAMP(6) NULL,
  last_failure         TIMESTAMP(6) NULL,
  consecutive_failures INT,
  last_heartbeat       TIMESTAMP(6) NULL,
  version              BIGINT       NOT NULL,
  priority             SMALLINT,
  PRIMARY KEY (task_name, task_instance),
  INDEX bounded_upload_task_execution_time_idx (execution_time),
  INDEX bounded_upload_task_last_heartbeat_idx (last_heartbeat)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS bounded_upload_deferred (
  batch_id     VARCHAR(36)   NOT NULL,
  idx          INT           NOT NULL,
  uploader     VARCHAR(63)   NOT NULL,
  object_key   VARCHAR(1024) NOT NULL,
  file_name    VARCHAR(1024) NOT NULL,
  content_type VARCHAR(255),
  metadata     VARCHAR(4000),
  content_size BIGINT        NOT NULL,
  content      LONGBLOB,
  ordered      BOOLEAN       NOT NULL,
  state        VARCHAR(16)   NOT NULL,
  created_at   BIGINT        NOT NULL,
  deadline_at  BIGINT        NOT NULL,
  finished_at  BIGINT,
  tries        INT           NOT NULL,
  failure      VARCHAR(1000),
  PRIMARY KEY (batch_id, idx),
  INDEX bounded_upload_deferred_state_idx (state, finished_at)
) ENGINE = InnoDB;
