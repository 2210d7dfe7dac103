package io.github.boundedupload.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.BatchEvent;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet's first deploy: several instances start at the same moment on an empty PostgreSQL, each creating the
 * journal's tables. Regression test of "duplicate key value violates unique constraint pg_type_typname_nsp_index"
 * (two {@code CREATE TABLE IF NOT EXISTS} at once), which failed 2 of 4 fleet starts: now every instance starts.
 *
 * <p>The race is forced, not hoped for: each instance's connection holds its first {@code CREATE TABLE} at a barrier
 * until every instance has reached it, or for a second. Without the journal's lock, all of them reach it and then
 * create the same table at the same instant, which PostgreSQL refuses to all but one; with the lock, the one that holds
 * it waits out the second alone, and the others follow it one by one and find the tables there.
 */
class FleetStartIT {

    private static final int INSTANCES = 6;
    private static final int DEPLOYS = 5;

    @TempDir
    Path root;

    @Test
    void severalJournalsStartingAtOnceOnAnEmptyPostgresqlAllStart() throws Exception {
        for (int deploy = 0; deploy < DEPLOYS; deploy++) {
            CyclicBarrier firstCreate = new CyclicBarrier(INSTANCES);
            DataSource database = heldAtFirstCreate(Postgres.dataSource(Postgres.newDatabase("fleet")), firstCreate);
            String prefix = "deploy-" + deploy + "-instance-";
            LocalFileUploader storage = new LocalFileUploader(root);
            List<JdbcUploadJournal> started = AtOnce.start(INSTANCES, i -> JdbcUploadJournal.builder(database, storage)
                    .instanceName(prefix + i).createTables(true).build());
            try {
                assertThat(started).hasSize(INSTANCES);
                assertThat(firstCreate.isBroken()).as("the barrier was given up: the instances took turns").isTrue();
                started.get(0).begin(new BatchEvent("fleet", 1, 1), List.of("fleet/" + deploy), Duration.ofMinutes(1))
                        .settled(true);
                assertThat(tables(database)).containsExactlyInAnyOrder("bounded_upload_batch", "bounded_upload_key",
                        "bounded_upload_task", "bounded_upload_deferred", "bounded_upload_instance",
                        "bounded_upload_grant", "bounded_upload_grant_caller");
                MigrationsIT.hasVersion4(database);
            } finally {
                started.forEach(JdbcUploadJournal::close);
            }
        }
    }

    /**
     * The database as every instance sees it: a statement that creates the first of the journal's tables waits at
     * {@code barrier} until all instances are there (then all go on at once), or a second (then it goes on alone, and so
     * does every statement that reaches the broken barrier after it).
     */
    private static DataSource heldAtFirstCreate(DataSource database, CyclicBarrier barrier) {
        return (DataSource) Proxy.newProxyInstance(FleetStartIT.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(database, method, args);
                    return result instanceof Connection ? connection((Connection) result, barrier) : result;
                });
    }

    private static Connection connection(Connection connection, CyclicBarrier barrier) {
        return (Connection) Proxy.newProxyInstance(FleetStartIT.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = invoke(connection, method, args);
                    if (result instanceof Statement && method.getName().equals("createStatement")) {
                        Statement statement = (Statement) result;
                        return Proxy.newProxyInstance(FleetStartIT.class.getClassLoader(),
                                new Class<?>[] {Statement.class}, (p, m, a) -> {
                                    if (m.getName().equals("execute") && a != null && a.length == 1
                                            && a[0] instanceof String && ((String) a[0]).toLowerCase(Locale.ROOT)
                                                    .startsWith("create table if not exists bounded_upload_batch")) {
                                        awaitOthers(barrier);
                                    }
                                    return invoke(statement, m, a);
                                });
                    }
                    return result;
                });
    }

    private static void awaitOthers(CyclicBarrier barrier) throws InterruptedException {
        try {
            barrier.await(1, TimeUnit.SECONDS);
        } catch (TimeoutException | BrokenBarrierException e) {
            // Alone at the barrier: the others wait for the lock this instance holds.
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static List<String> tables(DataSource database) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = database.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT tablename FROM pg_tables WHERE tablename LIKE 'bounded_upload_%'")) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        }
        return names;
    }
}
