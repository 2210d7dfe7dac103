-- bounded-upload's journal on PostgreSQL, version 3: the grants of direct uploads (JdbcGrantStore). A Flyway migration
-- (location classpath:io/github/boundedupload/jdbc/flyway/postgresql), the SQL of the Liquibase changelog, and what
-- JdbcUploadJournal.Builder.createTables(true) runs after version 2. Instances of versions 1 and 2 keep working on it:
-- they do not read these tables.

-- One row per grant: a file a caller announced and may upload itself, under staging_key, until expires_at (epoch
-- milliseconds); once confirmed, what the confirm stored (confirmed_key and the rest). Neither the signed request
-- (a secret) nor the object's location is kept.
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
  confirmed_version  VARCHAR(1024)
);

-- A caller's grants that count against its bound: neither confirmed nor expired.
CREATE INDEX IF NOT EXISTS bounded_upload_grant_caller_idx ON bounded_upload_grant (caller, expires_at);
-- Grants by expiry, for the sweep of expired ones.
CREATE INDEX IF NOT EXISTS bounded_upload_grant_expiry_idx ON bounded_upload_grant (expires_at);

-- One row per caller that was granted something: locked while its grants are counted and added, so that instances of
-- a fleet granting to one caller at once take turns and keep its bound.
CREATE TABLE IF NOT EXISTS bounded_upload_grant_caller (
  caller VARCHAR(200) NOT NULL PRIMARY KEY
);
