-- bounded-upload's journal on MySQL 8 and MariaDB (InnoDB), version 4: how a direct-upload grant's file is sent
-- (in parts, with a form). A Flyway migration (location classpath:io/github/boundedupload/jdbc/flyway/mysql), the SQL of the Liquibase
-- changelog, and what JdbcUploadJournal.Builder.createTables(true) runs after version 3 (MySQL 8 has no ADD COLUMN IF
-- NOT EXISTS: the journal skips a column when it is there). Instances of versions 1 to 3 keep working on it: they
-- never read the column. See flyway/postgresql/V4__bounded_upload_grant_kinds.sql for what it holds.

ALTER TABLE bounded_upload_grant ADD COLUMN upload_id VARCHAR(1024) NULL;
ALTER TABLE bounded_upload_grant ADD COLUMN by_form SMALLINT NULL;
