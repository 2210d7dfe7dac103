package io.github.boundedupload.autoconfigure;

import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The application's migration tool applying the journal's migrations, when that tool runs at start-up
 * ({@link JournalTables}). Refers to no optional library. Changes when what the journal needs of a migration tool
 * changes.
 */
@FunctionalInterface
interface JournalSchema {

    /**
     * Applies the journal's schema, if the tool runs in this application.
     *
     * @param dataSource the journal's database
     * @return what applied it, for the log; null when the tool does not run at start-up here (not configured, or
     *         disabled with {@code spring.flyway.enabled=false} or {@code spring.liquibase.enabled=false})
     */
    @Nullable String apply(DataSource dataSource);
}
