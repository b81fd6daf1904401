package dev.onebeat.scheduler.fire;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * onebeat's own statements on ShedLock's table, in ShedLock's row format and with its database time
 * ({@code timezone('utc', CURRENT_TIMESTAMP)}, as ShedLock's PostgreSQL provider writes it), so that they
 * and ShedLock's {@code lock()} exclude each other: the batch lock of many jobs in one statement, and a
 * release fenced on the holder.
 */
@Component
class JobLockTable {

    // Takes the lock rows of many jobs inside the caller's transaction and leaves them released (lock_until =
    // the transaction's start): the row locks the upsert holds until commit are what keeps every other fire
    // of these jobs out meanwhile; ShedLock's own lock() waits on them, then finds the lock free. A row held
    // by a committed ShedLock lock is not taken (WHERE lock_until <= now): that job is busy. Rows are taken in
    // name order, so two batches over the same jobs cannot deadlock.
    private static final String LOCK_ALL = """
            INSERT INTO shedlock (name, lock_until, locked_at, locked_by)
            SELECT ? || u.job, timezone('utc', CURRENT_TIMESTAMP), timezone('utc', CURRENT_TIMESTAMP), ?
            FROM unnest(?::varchar[]) AS u(job) ORDER BY u.job
            ON CONFLICT (name) DO UPDATE SET lock_until = EXCLUDED.lock_until, locked_at = EXCLUDED.locked_at,
                locked_by = EXCLUDED.locked_by
            WHERE shedlock.lock_until <= timezone('utc', CURRENT_TIMESTAMP)
            RETURNING substr(name, ?)
            """;

    private final JdbcTemplate jdbcTemplate;
    private final JdbcClient jdbc;

    JobLockTable(JdbcTemplate jdbcTemplate, JdbcClient jdbc) {
        this.jdbcTemplate = jdbcTemplate;
        this.jdbc = jdbc;
    }

    /**
     * Locks the jobs for the rest of the caller's transaction.
     *
     * @param jobs job names
     * @param node the locking replica, recorded as {@code locked_by}
     * @return the jobs locked; the others are held by a fire outside any transaction of this kind
     */
    List<String> lockAll(List<String> jobs, String node) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        List<String> locked = jdbcTemplate.execute((Connection con) -> {
            try (PreparedStatement ps = con.prepareStatement(LOCK_ALL)) {
                ps.setString(1, JobLocks.PREFIX);
                ps.setString(2, node);
                ps.setArray(3, array(con, jobs));
                ps.setInt(4, JobLocks.PREFIX.length() + 1);
                List<String> names = new ArrayList<>(jobs.size());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
                return names;
            }
        });
        return locked == null ? List.of() : locked;
    }

    /** @return the {@code locked_at} of the job's lock row as the database writes it, to fence the release on */
    Optional<String> lockedAt(String job) {
        return jdbc.sql("SELECT locked_at::text FROM shedlock WHERE name = ?")
                .param(JobLocks.PREFIX + job)
                .query(String.class)
                .optional();
    }

    /**
     * Releases the job's lock if it is still the one taken at {@code lockedAt}. A fire that outlived its
     * {@code lockAtMostFor} finds a newer holder's row and leaves it alone.
     *
     * @return whether the lock was released
     */
    boolean release(String job, String lockedAt) {
        // locked_at fences the release: a newer holder has a newer locked_at
        return jdbc.sql("""
                        UPDATE shedlock SET lock_until = timezone('utc', CURRENT_TIMESTAMP)
                        WHERE name = ? AND locked_at = CAST(? AS timestamp)
                        """)
                .params(JobLocks.PREFIX + job, lockedAt)
                .update() == 1;
    }

    private static Array array(Connection con, List<String> values) throws SQLException {
        return con.createArrayOf("varchar", values.toArray(String[]::new));
    }
}
