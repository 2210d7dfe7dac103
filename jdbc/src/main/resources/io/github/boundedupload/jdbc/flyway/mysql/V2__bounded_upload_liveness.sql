-- bounded-upload's journal on MySQL 8 and MariaDB (InnoDB), version 2: which live instance runs each batch. A Flyway
-- migration (location classpath:io/github/boundedupload/jdbc/flyway/mysql), the SQL of the Liquibase changelog, and
-- what JdbcUploadJournal.Builder.createTables(true) runs after version 1 (MySQL 8 has no ADD COLUMN IF NOT EXISTS:
-- the journal skips the column when it is there); see flyway/postgresql/V2__bounded_upload_liveness.sql for what each
-- part holds.

ALTER TABLE bounded_upload_batch ADD COLUMN session_id VARCHAR(36) NULL;

CREATE TABLE IF NOT EXISTS bounded_upload_instance (
  session_id VARCHAR(36)  NOT NULL PRIMARY KEY,
  name       VARCHAR(200) NOT NULL,
  started_at BIGINT       NOT NULL,
  beat_at    BIGINT       NOT NULL
) ENGINE = InnoDB;

CREATE INDEX bounded_upload_deferred_key_idx ON bounded_upload_deferred (object_key(191));
