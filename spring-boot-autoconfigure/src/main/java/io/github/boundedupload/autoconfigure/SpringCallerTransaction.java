package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.jdbc.CallerTransaction;
import java.sql.Connection;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The Spring-managed transaction of the calling thread, on the journal's data source: the connection Spring binds to
 * it (the one {@code JdbcTemplate}, JPA and jOOQ on that data source use), so that "keep" commits or rolls back with
 * the application's own rows. A rollback removes the objects at once. Changes when the way a Spring-managed
 * transaction's connection is found changes.
 */
final class SpringCallerTransaction implements CallerTransaction {

    private final DataSource dataSource;

    SpringCallerTransaction(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public @Nullable Connection current() {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
            return null;
        }
        // Bound to the transaction (and released by it) when the transaction manager manages this data source.
        return DataSourceUtils.getConnection(dataSource);
    }

    @Override
    public void afterRollback(Runnable action) {
        afterCompletion(TransactionSynchronization.STATUS_ROLLED_BACK, action);
    }

    @Override
    public void afterCommit(Runnable action) {
        afterCompletion(TransactionSynchronization.STATUS_COMMITTED, action);
    }

    private static void afterCompletion(int wanted, Runnable action) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    if (status == wanted) {
                        action.run();
                    }
                }
            });
        }
    }
}
