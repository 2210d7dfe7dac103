-- bounded-upload's journal on PostgreSQL, version 4: the multipart upload a direct-upload grant started. A Flyway
-- migration (location classpath:io/github/boundedupload/jdbc/flyway/postgresql), the SQL of the Liquibase changelog,
-- and what JdbcUploadJournal.Builder.createTables(true) runs after version 3. Instances of versions 1 to 3 keep working
-- on it: they never read the column.

-- The id of the S3 multipart upload the grant started, its parts signed for the caller; empty for a grant of one PUT.
-- Not a secret (the signature is).
ALTER TABLE bounded_upload_grant ADD COLUMN IF NOT EXISTS upload_id VARCHAR(1024);
