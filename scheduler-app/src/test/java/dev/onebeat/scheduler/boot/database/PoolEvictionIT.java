package dev.onebeat.scheduler.boot.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.scheduler.boot.database.PoolEviction.Reason;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * A real Hikari pool on the local PostgreSQL, every session of it terminated by the server ({@code pg_terminate_backend},
 * as a failover or a restart ends them), then borrowed from one connection after another. The pool hands out its
 * connections without checking them, as Hikari does for one used in the last 500 ms ({@code aliveBypassWindowMs},
 * widened here so that a slow machine gives the same picture): with the eviction the first dead connection takes the
 * others with it and the next borrows reach new sessions; with Hikari alone each dead connection fails in turn.
 */
@ExtendWith(PostgresExtension.class)
class PoolEvictionIT {

    private static final int SIZE = 4;

    @Test
    void theFirstSessionFoundEndedEvictsThePoolSoThatTheNextBorrowsReachNewSessions(TestDatabase database)
            throws Exception {
        MeterRegistry meters = new SimpleMeterRegistry();
        try (HikariDataSource pool = pool(database, EnumSet.allOf(Reason.class), meters)) {
            Set<Long> ended = terminateAll(database, pool);

            Borrows borrows = borrowOneAfterAnother(pool);

            assertThat(borrows.failed()).as("borrows that met an ended session").isEqualTo(1);
            assertThat(borrows.sessions()).as("sessions reached after it").hasSize(SIZE - 1)
                    .doesNotContainAnyElementsOf(ended);
            assertThat(meters.get(PoolEviction.METRIC).tag("reason", "session-lost").counter().count()).isEqualTo(1);
        }
    }

    @Test
    void withoutItEveryEndedSessionIsHandedOutAndFailsInTurn(TestDatabase database) throws Exception {
        try (HikariDataSource pool = pool(database, EnumSet.of(Reason.READ_ONLY), new SimpleMeterRegistry())) {
            terminateAll(database, pool);

            assertThat(borrowOneAfterAnother(pool).failed()).as("borrows that met an ended session").isEqualTo(SIZE);
        }
    }

    private record Borrows(int failed, List<Long> sessions) {
    }

    private static Borrows borrowOneAfterAnother(HikariDataSource pool) {
        int failed = 0;
        List<Long> sessions = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            try {
                sessions.add(backendPid(pool.getConnection()));
            } catch (SQLException e) {
                failed++;
            }
        }
        return new Borrows(failed, sessions);
    }

    /** Opens every connection of the pool, then ends their sessions from another one; returns their process ids. */
    private static Set<Long> terminateAll(TestDatabase database, HikariDataSource pool) throws SQLException {
        List<Connection> all = new ArrayList<>();
        Set<Long> pids = new HashSet<>();
        try {
            for (int i = 0; i < SIZE; i++) {
                Connection connection = pool.getConnection();
                all.add(connection);
                pids.add(pid(connection));
            }
        } finally {
            for (Connection connection : all) {
                connection.close();
            }
        }
        try (Connection admin = database.connect(); PreparedStatement terminate = admin.prepareStatement(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid = ANY (?)")) {
            terminate.setArray(1, admin.createArrayOf("bigint", pids.toArray()));
            try (ResultSet rows = terminate.executeQuery()) {
                rows.next();
                assertThat(rows.getInt(1)).as("sessions terminated").isEqualTo(SIZE);
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> gone(database, pids));
        return pids;
    }

    private static boolean gone(TestDatabase database, Set<Long> pids) throws SQLException {
        try (Connection admin = database.connect(); PreparedStatement alive = admin.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY (?)")) {
            alive.setArray(1, admin.createArrayOf("bigint", pids.toArray()));
            try (ResultSet rows = alive.executeQuery()) {
                rows.next();
                return rows.getInt(1) == 0;
            }
        }
    }

    private static long backendPid(Connection borrowed) throws SQLException {
        try (Connection connection = borrowed) {
            return pid(connection);
        }
    }

    private static long pid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * A pool of {@link #SIZE} connections with the eviction installed as the application installs it, before the pool
     * starts. Hikari reads {@code com.zaxxer.hikari.aliveBypassWindowMs} when it starts a pool (its first borrow): set
     * around that only.
     */
    private static HikariDataSource pool(TestDatabase database, Set<Reason> reasons, MeterRegistry meters)
            throws SQLException {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database.jdbcUrl());
        pool.setUsername(database.username());
        pool.setPassword(database.password());
        pool.setPoolName("pool-eviction-" + UUID.randomUUID());
        pool.setMaximumPoolSize(SIZE);
        pool.setMinimumIdle(SIZE);
        pool.setConnectionTimeout(10_000);
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("meters", meters);
        ConnectionConfiguration.install(pool, reasons, beans.getBeanProvider(MeterRegistry.class));
        String bypass = "com.zaxxer.hikari.aliveBypassWindowMs";
        String before = System.getProperty(bypass);
        System.setProperty(bypass, "600000");
        try {
            pool.getConnection().close();
            return pool;
        } finally {
            if (before == null) {
                System.clearProperty(bypass);
            } else {
                System.setProperty(bypass, before);
            }
        }
    }
}
