-- bounded-upload's journal on MySQL 8 and MariaDB (InnoDB), version 3: the grants of direct uploads (JdbcGrantStore).
-- A Flyway migration (location classpath:io/github/boundedupload/jdbc/flyway/mysql), the SQL of the Liquibase
-- changelog, and what JdbcUploadJournal.Builder.createTables(true) runs after version 2 (the indexes are part of the
-- tables: MySQL 8 has no CREATE INDEX IF NOT EXISTS); see flyway/postgresql/V3__bounded_upload_grant.sql for what
-- each part holds.

CREATE TABLE IF NOT EXISTS bounded_upload_grant (
  grant_id           VARCHAR(36)   NOT NULL PRIMARY KEY,
  caller             VARCHAR(200)  NOT NULL,
  file_name          VARCHAR(1024) NOT NULL,
  size_bytes         BIGINT        NOT NULL,
  content_type       VARCHAR(255)  NOT NULL,
  checksum_algorithm VARCHAR(16),
  checksum           VARCHAR(128),
  staging_key        VARCHAR(1024) NOT NULL,
  expires_at         BIGINT        NOT NULL,
  confirmed_key      VARCHAR(1024),
  confirmed_size     BIGINT,
  confirmed_etag     VARCHAR(255),
  confirmed_checksum_algorithm VARCHAR(16),
  confirmed_checksum VARCHAR(128),
  confirmed_version  VARCHAR(1024),
  INDEX bounded_upload_grant_caller_idx (caller, expires_at),
  INDEX bounded_upload_grant_expiry_idx (expires_at)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS bounded_upload_grant_caller (
  caller VARCHAR(200) NOT NULL PRIMARY KEY
) ENGINE = InnoDB;
