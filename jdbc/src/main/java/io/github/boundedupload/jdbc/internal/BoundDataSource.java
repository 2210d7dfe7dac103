package io.github.boundedupload.jdbc.internal;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The data source db-scheduler is given: while {@link #with} runs on a thread, the scheduler's calls on that thread use
 * the journal's connection, and so its transaction (db-scheduler neither commits nor closes a connection whose
 * auto-commit is off: it closes this one, which does nothing). Otherwise, the application's data source. Changes when
 * the way db-scheduler takes connections changes.
 */
public final class BoundDataSource implements DataSource {

    private final DataSource target;
    private final ThreadBinding<Connection> bound = new ThreadBinding<>();

    public BoundDataSource(DataSource target) {
        this.target = target;
    }

    /** Runs {@code work} with the scheduler's calls on this thread going to {@code connection}. */
    public <T> T with(Connection connection, ThreadBinding.Work<T, SQLException> work) throws SQLException {
        return bound.with(unclosable(connection), work);
    }

    private static Connection unclosable(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close":
                            return null;
                        case "isClosed":
                            return false;
                        default:
                            try {
                                return method.invoke(connection, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                    }
                });
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = bound.current();
        return connection != null ? connection : autoCommitting(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        Connection connection = bound.current();
        return connection != null ? connection : autoCommitting(target.getConnection(username, password));
    }

    /**
     * db-scheduler commits nothing on a connection whose auto-commit is off (so that it can join ours): a pool that
     * hands out such connections ({@code spring.datasource.hikari.auto-commit=false}, set so that Hibernate takes a
     * connection only when it needs one) would have its own work rolled back. Its own connections commit each
     * statement; pools reset auto-commit when they take a connection back.
     */
    private static Connection autoCommitting(Connection connection) throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.setAutoCommit(true);
        }
        return connection;
    }

    @Override
    public @Nullable PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(@Nullable PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return target.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return target.isWrapperFor(type);
    }
}
