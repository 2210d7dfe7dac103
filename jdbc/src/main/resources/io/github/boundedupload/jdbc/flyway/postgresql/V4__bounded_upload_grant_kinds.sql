-- bounded-upload's journal on PostgreSQL, version 4: how a direct-upload grant's file is sent (in parts, with a form). A Flyway
-- migration (location classpath:io/github/boundedupload/jdbc/flyway/postgresql), the SQL of the Liquibase changelog,
-- and what JdbcUploadJournal.Builder.createTables(true) runs after version 3. Instances of versions 1 to 3 keep working
-- on it: they never read the columns.

-- The id of the S3 multipart upload the grant started, its parts signed for the caller; empty for a grant of one PUT.
-- Not a secret (the signature is).
ALTER TABLE bounded_upload_grant ADD COLUMN IF NOT EXISTS upload_id VARCHAR(1024);

-- 1 for a grant of a file sent with a form (POST): its size_bytes is the most it may have, and the confirm takes the
-- size found; empty (or 0) for a grant of a PUT or of parts, whose size is exact.
ALTER TABLE bounded_upload_grant ADD COLUMN IF NOT EXISTS by_form SMALLINT;
