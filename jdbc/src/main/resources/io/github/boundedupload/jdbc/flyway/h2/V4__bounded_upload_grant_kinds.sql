-- bounded-upload's journal on H2, version 4: how a direct-upload grant's file is sent (in parts, with a form). A Flyway migration
-- (location classpath:io/github/boundedupload/jdbc/flyway/h2), the SQL of the Liquibase changelog, and what
-- JdbcUploadJournal.Builder.createTables(true) runs after version 3. Instances of versions 1 to 3 keep working on it:
-- they never read the columns. See flyway/postgresql/V4__bounded_upload_grant_kinds.sql for what it holds.

ALTER TABLE bounded_upload_grant ADD COLUMN IF NOT EXISTS upload_id VARCHAR(1024);
ALTER TABLE bounded_upload_grant ADD COLUMN IF NOT EXISTS by_form SMALLINT;
