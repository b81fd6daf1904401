package dev.onebeat.scheduler.fire;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The retention horizon of each job, {@code onebeat_fire_horizon}: the newest instant whose ledger row the retention
 * job has deleted. At or before it the ledger cannot prove that an instant never committed, so nothing fires it
 * again: the ledger's claim takes such an instant as fired ({@link FireLedger#claim}), and backfills and re-runs
 * refuse it. A horizon only moves forward, in the transaction of the deletes that move it, and is never purged, so
 * "at most once" holds for the life of the database, not for the retention window.
 *
 * <p>A retention pass first makes sure each job it purges has a horizon row, committed on its own
 * ({@link #ensure}); then, in its transaction, locks the rows ({@link #lockForPurge}), deletes, and moves them
 * ({@link #advance}). A claim locks the row it reads, so a claim and a pass on the same job wait for each other, and
 * a claim that waited reads the moved horizon.
 */
@Component
public class FireHorizon {

    private final JdbcClient jdbc;

    FireHorizon(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** @return the job's horizon: instants at or before it are beyond retention; empty if none was purged */
    public Optional<Instant> of(String job) {
        return jdbc.sql("""
                        SELECT purged_through FROM onebeat_fire_horizon
                        WHERE job_name = ? AND purged_through > '-infinity'""").param(job)
                .query(Timestamp.class).optional().map(Timestamp::toInstant);
    }

    /** @return whether {@code instant} is at or before the job's horizon */
    public static boolean beyond(Optional<Instant> horizon, Instant instant) {
        return horizon.isPresent() && !instant.isAfter(horizon.get());
    }

    /**
     * Creates the missing horizon rows of {@code jobs} ({@code -infinity}: nothing purged yet), on a connection of
     * their own that commits before the pass deletes anything: a claim can only wait for a row it sees.
     */
    public static void ensure(Connection connection, Collection<String> jobs) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO onebeat_fire_horizon (job_name, purged_through, updated_at)
                SELECT u.job, '-infinity', now() FROM unnest(?::varchar[]) AS u(job)
                ON CONFLICT (job_name) DO NOTHING""")) {
            insert.setArray(1, connection.createArrayOf("varchar", jobs.toArray()));
            insert.executeUpdate();
        }
    }

    /**
     * Locks the horizon rows of {@code jobs} in the pass's transaction, skipping those a fire's claim holds: that job's
     * rows wait for the next pass.
     *
     * @return the jobs whose rows the pass may delete
     */
    public static Set<String> lockForPurge(Connection connection, Collection<String> jobs) throws SQLException {
        Set<String> locked = new HashSet<>();
        // FOR UPDATE conflicts with the claims' KEY SHARE: no claim reads this horizon until the pass commits
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT job_name FROM onebeat_fire_horizon WHERE job_name = ANY(?::varchar[])
                ORDER BY job_name FOR UPDATE SKIP LOCKED""")) {
            select.setArray(1, connection.createArrayOf("varchar", jobs.toArray()));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    locked.add(rs.getString(1));
                }
            }
        }
        return locked;
    }

    /** Moves the job's horizon to {@code purgedThrough}, if that is later, in the transaction of the deletes. */
    public static void advance(Connection connection, String job, Instant purgedThrough) throws SQLException {
        // greatest(): a horizon never moves back, whatever order passes commit in
        try (PreparedStatement update = connection.prepareStatement("""
                UPDATE onebeat_fire_horizon SET purged_through = greatest(purged_through, ?), updated_at = now()
                WHERE job_name = ?""")) {
            update.setTimestamp(1, Timestamp.from(purgedThrough));
            update.setString(2, job);
            update.executeUpdate();
        }
    }
}
