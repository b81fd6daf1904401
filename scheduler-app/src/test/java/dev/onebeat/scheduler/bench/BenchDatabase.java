package dev.onebeat.scheduler.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fresh database {@code onebeat_bench_<random>} on the server of an admin URL, dropped on
 * {@link #close()} (or when the JVM is interrupted), whoever is still connected to it.
 *
 * <p>Statistics queries go through the admin URL's own database, so reading a counter does not
 * move it.
 */
final class BenchDatabase implements AutoCloseable {

    private static final Pattern URL = Pattern.compile("(jdbc:postgresql://[^/?]*)(/[^?]*)?(\\?.*)?");

    private final String adminUrl;
    private final String name;
    private final String url;
    private final AtomicBoolean dropped = new AtomicBoolean();

    private BenchDatabase(String adminUrl, String name) {
        this.adminUrl = adminUrl;
        this.name = name;
        this.url = withDatabase(adminUrl, name);
    }

    /** @throws IllegalStateException if the server cannot be reached or refuses the database */
    static BenchDatabase create(String adminUrl) {
        String random = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(4);
        String name = "onebeat_bench_" + random;
        BenchDatabase database = new BenchDatabase(adminUrl, name);
        // template0: whatever someone added to template1 stays out of the measurement
        database.admin("CREATE DATABASE " + name + " TEMPLATE template0");
        Runtime.getRuntime().addShutdownHook(new Thread(database::close, "drop-" + name));
        return database;
    }

    String name() {
        return name;
    }

    /** @return a JDBC URL of this database, carrying the admin URL's parameters (credentials among them) */
    String url() {
        return url;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    String serverVersion() {
        return adminQuery("SELECT version()", String.class);
    }

    /** @return the server settings that move these figures most, as {@code name=value} pairs */
    String settings() {
        return adminQuery("""
                SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings
                WHERE name IN ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_wal_size',
                               'autovacuum', 'full_page_writes')""", String.class);
    }

    /** Transactions committed in this database, as far as the server's statistics have been flushed. */
    long committedTransactions() {
        return adminQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = '" + name + "'", Long.class);
    }

    /** @return the process ids of the sessions connected to this database */
    Set<Integer> sessions() {
        try (Connection admin = DriverManager.getConnection(adminUrl);
             PreparedStatement query = admin.prepareStatement("SELECT pid FROM pg_stat_activity WHERE datname = ?")) {
            query.setString(1, name);
            Set<Integer> pids = new HashSet<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    pids.add(rows.getInt(1));
                }
            }
            return pids;
        } catch (SQLException e) {
            throw new IllegalStateException("could not list the sessions of " + name, e);
        }
    }

    /** Waits until none of {@code pids} is connected any more. */
    void awaitGone(Set<Integer> pids, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<Integer> left = new HashSet<>(pids);
        while (true) {
            left.retainAll(sessions());
            if (left.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("sessions " + left + " of " + name + " still open after " + timeout);
            }
            sleep(Duration.ofMillis(20));
        }
    }

    /** Drops the database, ending the sessions still connected to it (PostgreSQL 13 or later). */
    @Override
    public void close() {
        if (dropped.compareAndSet(false, true)) {
            admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    private void admin(String sql) {
        try (Connection admin = DriverManager.getConnection(adminUrl); Statement statement = admin.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("could not run '" + sql + "' on the server of "
                    + BenchOptions.URL_VARIABLE, e);
        }
    }

    private <T> T adminQuery(String sql, Class<T> type) {
        try (Connection admin = DriverManager.getConnection(adminUrl); Statement statement = admin.createStatement();
             ResultSet row = statement.executeQuery(sql)) {
            if (!row.next()) {
                throw new IllegalStateException("'" + sql + "' returned no row");
            }
            return row.getObject(1, type);
        } catch (SQLException e) {
            throw new IllegalStateException("could not run '" + sql + "'", e);
        }
    }

    static String withDatabase(String adminUrl, String database) {
        Matcher parts = URL.matcher(adminUrl);
        if (!parts.matches()) {
            throw new IllegalArgumentException("expected jdbc:postgresql://host[:port][/database][?parameters]");
        }
        return parts.group(1) + "/" + database + (parts.group(3) == null ? "" : parts.group(3));
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
