package io.github.boundedupload.autoconfigure;

import javax.sql.DataSource;

/**
 * How the journal's tables come to exist when a migration tool is in the application
 * ({@code bounded-upload.journal.create-tables}): the tool applies the journal's migrations, and the journal creates
 * nothing itself. Refers to no optional library. Changes when what the journal needs of a migration tool changes.
 */
@FunctionalInterface
interface JournalSchema {

    /**
     * Applies the journal's schema.
     *
     * @param dataSource the journal's database
     * @return what applied it, for the log
     */
    String apply(DataSource dataSource);
}
