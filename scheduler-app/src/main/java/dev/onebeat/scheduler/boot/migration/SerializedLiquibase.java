package dev.onebeat.scheduler.boot.migration;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import liquibase.exception.LiquibaseException;
import liquibase.integration.commandline.LiquibaseCommandLineConfiguration;
import liquibase.integration.spring.SpringLiquibase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Liquibase run under a PostgreSQL advisory lock. Replicas starting together on an empty database
 * would otherwise race to create Liquibase's own tables ({@code DATABASECHANGELOG} is created
 * before Liquibase takes its lock) and all but one would fail to start.
 *
 * <p>The lock and the migrations share one session, free of the pool's timeouts: waiting for another
 * replica's migrations and a migration itself (an index built over a large table, a table lock awaited behind
 * running fires) may take minutes, which the driver's {@code socketTimeout} and the server's {@code lock_timeout}
 * and {@code idle_in_transaction_session_timeout} set for every other connection would cut. The session gets them
 * back before it returns to the pool.
 *
 * <p>The whole step is tried again while the database cannot be reached ({@link DatabaseStartup}). Neither lock can
 * outlive a failed attempt: the advisory lock is a session's, so it goes with a terminated session, and a connection
 * whose unlock failed is evicted from the pool rather than handed back still holding it; Liquibase's own lock is a
 * row, which an attempt killed between taking and releasing it leaves set, so it is cleared under the advisory lock.
 *
 * <p>With {@code skipUnchanged}, a start finds out first, without any lock, whether there is anything to do: when the
 * database records that this same changelog ({@link ChangelogDigest}) was applied in full and Liquibase's
 * {@code databasechangelog} is as it was right after ({@link AppliedChangelog}), Liquibase is not started at all. That
 * is most starts: a restart, a replica added, a failover. They skip Liquibase's start-up and validation (about a
 * seventh of a replica's start-up CPU) and no longer wait in line for the advisory lock behind replicas starting at
 * the same moment. After every run of Liquibase, the changelog's digest is recorded under the lock.
 */
// public for the tests' template database, which is migrated as a first start migrates it (MigratedTemplate)
public class SerializedLiquibase extends SpringLiquibase {

    private static final Logger log = LoggerFactory.getLogger(SerializedLiquibase.class);
    // any fixed number; only onebeat replicas take it
    static final long LOCK_KEY = 0x6f6e65626561744cL;
    private static final String UNBOUNDED = "SET lock_timeout = 0; SET idle_in_transaction_session_timeout = 0";
    // back to the values the session started with (the URL's or the pool's options)
    private static final String BOUNDED = "RESET lock_timeout; RESET idle_in_transaction_session_timeout";

    private final DatabaseStartup startup;
    private final boolean skipUnchanged;
    /** The changelog's digest, once read; empty when it uses what {@link ChangelogDigest} does not follow. */
    private Optional<String> digest;

    /**
     * @param startup runs the step again while the database cannot be reached
     * @param skipUnchanged whether a changelog recorded as applied, on an unchanged {@code databasechangelog}, is
     *     not run again ({@code onebeat.startup.skip-applied-changelog})
     */
    public SerializedLiquibase(DatabaseStartup startup, boolean skipUnchanged) {
        this.startup = startup;
        this.skipUnchanged = skipUnchanged;
    }

    @Override
    public void afterPropertiesSet() {
        startup.run("migrations", () -> {
            if (!(skipUnchanged && alreadyApplied())) {
                migrateOnce();
            }
        });
    }

    /**
     * @return whether this changelog is recorded as applied on an unchanged {@code databasechangelog}; false when that
     *     cannot be told for any reason (the changelog has no digest, a read failed or waited too long for a lock held
     *     by a migration under way), so that Liquibase runs, under the lock, as it did before this check
     */
    private boolean alreadyApplied() {
        try {
            Optional<String> changelog = changelogDigest();
            if (changelog.isEmpty()) {
                return false;
            }
            try (Connection connection = getDataSource().getConnection()) {
                if (!AppliedChangelog.unchanged(connection, changelog.get())) {
                    return false;
                }
            }
            log.info("migrations already applied, Liquibase not run changelog={} digest={}", getChangeLog(),
                    changelog.get().substring(0, 12));
            return true;
        } catch (SQLException | RuntimeException e) {
            // a database that cannot be reached fails the migration that follows too, which start-up retries
            log.info("migrations: could not tell whether changelog {} is applied, running Liquibase: {}", getChangeLog(),
                    e.toString());
            return false;
        }
    }

    /** @return the changelog's digest, read once; empty when it has none, or could not be read */
    private Optional<String> changelogDigest() {
        if (digest == null) {
            try {
                digest = ChangelogDigest.of(getResourceLoader(), getChangeLog());
                if (digest.isEmpty()) {
                    log.info("migrations: changelog {} uses what onebeat does not follow (see ChangelogDigest); "
                            + "Liquibase checks it at every start", getChangeLog());
                }
            } catch (IOException | RuntimeException e) {
                log.info("migrations: changelog {} could not be read for its digest, Liquibase checks it at every "
                        + "start: {}", getChangeLog(), e.toString());
                digest = Optional.empty();
            }
        }
        return digest;
    }

    private void migrateOnce() throws LiquibaseException, SQLException {
        DataSource pool = getDataSource();
        try (Connection lock = pool.getConnection()) {
            lock.setAutoCommit(true);
            // the pool restores its network timeout when the connection is given back
            lock.setNetworkTimeout(Runnable::run, 0);
            execute(lock, UNBOUNDED);
            call(lock, "SELECT pg_advisory_lock(?)");
            setDataSource(new SingleConnectionDataSource(lock, true));
            Exception failure = null;
            try {
                releaseStaleLiquibaseLock(lock);
                long start = System.nanoTime();
                super.afterPropertiesSet();
                log.info("migrations applied changelog={} durationMs={}", getChangeLog(),
                        (System.nanoTime() - start) / 1_000_000);
                recordApplied(lock);
            } catch (LiquibaseException | SQLException | RuntimeException e) {
                failure = e;
                throw e;
            } finally {
                setDataSource(pool);
                unlock(lock, failure);
            }
        }
    }

    /**
     * Records the changelog as applied, whether or not this replica skips: another may. Only after Liquibase did run:
     * {@code shouldRun} false (set here, by {@code liquibase.shouldRun} or {@code LIQUIBASE_SHOULD_RUN}) returns
     * without applying anything. A failure to record costs the next starts their skip, not this start.
     */
    private void recordApplied(Connection lock) {
        if (!shouldRun || !Boolean.TRUE.equals(LiquibaseCommandLineConfiguration.SHOULD_RUN.getCurrentValue())) {
            return;
        }
        Optional<String> changelog = changelogDigest();
        if (changelog.isEmpty()) {
            return;
        }
        try {
            AppliedChangelog.record(lock, getChangeLog(), changelog.get(), appliedBy());
        } catch (SQLException e) {
            log.warn("migrations applied but not recorded as applied (the next start runs Liquibase again): {}",
                    e.toString());
        }
    }

    private static String appliedBy() {
        return System.getenv().getOrDefault("HOSTNAME", "unknown host") + " pid " + ProcessHandle.current().pid();
    }

    /**
     * Holding the advisory lock, this replica is the only onebeat migrating: a Liquibase lock found taken was left
     * by an attempt that died (a replica killed, a session terminated), and Liquibase would wait 5 minutes for it.
     */
    private static void releaseStaleLiquibaseLock(Connection connection) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement(
                "SELECT to_regclass('databasechangeloglock') IS NOT NULL"); ResultSet found = exists.executeQuery()) {
            found.next();
            if (!found.getBoolean(1)) {
                return;
            }
        }
        try (PreparedStatement release = connection.prepareStatement("""
                UPDATE databasechangeloglock SET locked = false, lockgranted = NULL, lockedby = NULL
                WHERE locked RETURNING id""");
             ResultSet released = release.executeQuery()) {
            List<Integer> ids = new ArrayList<>();
            while (released.next()) {
                ids.add(released.getInt(1));
            }
            if (!ids.isEmpty()) {
                log.warn("stale Liquibase lock released, left by a migration that did not finish ids={}", ids);
            }
        }
    }

    /** Unlocks; a failure to unlock is added to the attempt's own failure, if any, which says more. */
    private void unlock(Connection lock, Exception failure) throws SQLException {
        try {
            lock.setAutoCommit(true);
            call(lock, "SELECT pg_advisory_unlock(?)");
            execute(lock, BOUNDED);
        } catch (SQLException e) {
            // the session may be alive and still hold the lock: it must not go back to the pool
            if (getDataSource().isWrapperFor(HikariDataSource.class)) {
                getDataSource().unwrap(HikariDataSource.class).evictConnection(lock);
            } else {
                lock.abort(Runnable::run);
            }
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void call(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, LOCK_KEY);
            statement.execute();
        }
    }
}
