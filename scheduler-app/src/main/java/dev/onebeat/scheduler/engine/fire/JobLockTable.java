package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.boot.database.BatchDelete;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Every statement on ShedLock's table but those of ShedLock's own lock provider (configured with {@link #TABLE}),
 * in ShedLock's row format and with its database time ({@code timezone('utc', CURRENT_TIMESTAMP)}, as ShedLock's
 * PostgreSQL provider writes it), so that they and ShedLock's {@code lock()} exclude each other: the batch lock of
 * many jobs in one statement, a release fenced on the holder, the console's list, what the monitor sees running and
 * what retention deletes.
 */
@Component
public class JobLockTable {

    /** ShedLock's table, which its lock provider is configured with. */
    public static final String TABLE = "shedlock";

    // The lock rows of jobs that have none yet (a job's first fire), written released and held by the caller's
    // transaction, in name order; a row another transaction is writing is waited for, then left. Run before LOCK_ALL
    // in every batch: an existing row costs an index probe and no write.
    private static final String CREATE_ALL = """
            INSERT INTO shedlock (name, lock_until, locked_at, locked_by)
            SELECT ? || u.job, timezone('utc', CURRENT_TIMESTAMP), timezone('utc', CURRENT_TIMESTAMP), ?
            FROM unnest(?::varchar[]) AS u(job) ORDER BY u.job
            ON CONFLICT (name) DO NOTHING
            """;

    // Holds the lock rows of many jobs for the caller's transaction, and leaves them as they were: the row locks
    // held until commit are what keeps every other fire of these jobs out meanwhile; ShedLock's own lock() (an
    // upsert or an update of the row) waits on them, then finds the lock free. A row held by a committed ShedLock
    // lock is not taken (WHERE lock_until <= now, checked again on the row's newest version after a wait): that job
    // is busy. One statement locks them all in name order (FOR UPDATE locks after the sort), after CREATE_ALL, whose
    // own rows it sees and whose waits end before it begins, so two batches over the same jobs cannot deadlock. A row
    // lock writes no new row version and no index entry: the upsert this replaced wrote both for every job of every
    // instant, a quarter of a batch's writes at 100,000 jobs on one instant. A free row's locked_at and locked_by
    // therefore still name its last single fire (or its creation), not the batches since.
    private static final String LOCK_ALL = """
            SELECT substr(name, ?) FROM shedlock
            WHERE name = ANY(?::varchar[]) AND lock_until <= timezone('utc', CURRENT_TIMESTAMP)
            ORDER BY name FOR UPDATE
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
     * @param holder the locking replica, its kind of fire and the instant it fires ({@link #lockedBy}), recorded
     *     as {@code locked_by} of a row it creates (an existing row keeps its own, see {@link #LOCK_ALL})
     * @return the jobs locked; the others are held by a fire outside any transaction of this kind
     */
    List<String> lockAll(List<String> jobs, String holder) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        List<String> locked = jdbcTemplate.execute((Connection con) -> {
            try (PreparedStatement ps = con.prepareStatement(CREATE_ALL)) {
                ps.setString(1, JobLocks.PREFIX);
                ps.setString(2, holder);
                ps.setArray(3, array(con, jobs));
                ps.executeUpdate();
            }
            return lock(con, jobs);
        });
        return locked == null ? List.of() : locked;
    }

    private static List<String> lock(Connection con, List<String> jobs) throws SQLException {
        try (PreparedStatement ps = con.prepareStatement(LOCK_ALL)) {
            ps.setInt(1, JobLocks.PREFIX.length() + 1);
            ps.setArray(2, con.createArrayOf("varchar", jobs.stream().map(job -> JobLocks.PREFIX + job)
                    .toArray(String[]::new)));
            List<String> names = new ArrayList<>(jobs.size());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            return names;
        }
    }

    /** The kind written into {@code locked_by} by the schedule's own fire of an instant. */
    static final String SCHEDULED = "scheduled";

    /**
     * @return the {@code locked_by} of a fire: {@code <node> <kind> <instant>}, the kind {@value #SCHEDULED} for the
     *     schedule's own fire of the instant or, for any other fire, its trigger kind
     */
    static String lockedBy(FireRequest request) {
        return request.node() + " " + (request.scheduled() ? SCHEDULED : request.trigger().column()) + " "
                + request.scheduledAt();
    }

    /**
     * Writes who holds a lock just taken, for which kind of fire and which instant ({@link #lockedBy}), into
     * {@code locked_by}.
     *
     * @param name the lock row's name
     * @return the {@code locked_at} of the row as the database writes it, to fence the release on
     */
    Optional<String> claim(String name, String holder) {
        return jdbc.sql("UPDATE shedlock SET locked_by = ? WHERE name = ? RETURNING locked_at::text")
                .params(holder, name)
                .query(String.class)
                .optional();
    }

    /**
     * Who holds a lock.
     *
     * @param instant the instant of the fire holding it, as its holder wrote it ({@link #claim})
     * @param lockedAt when it was taken, by the database's clock
     * @param alive whether the holder's replica has checked in to the Quartz cluster within two of its check-in
     *     intervals, by database time (when the database saw the check-in, not the time the replica wrote into it):
     *     a fire whose replica died holds the lock until {@code lockAtMostFor} but runs no more
     * @param scheduled whether the holder is the schedule's own fire of its instant (a holder of an earlier version,
     *     which wrote no kind, counts as one), not a recovery, a retry or a manual run
     */
    record Holder(Instant instant, Instant lockedAt, boolean alive, boolean scheduled) {
    }

    /**
     * @param name a lock row's name
     * @return the holder of a held lock; empty when the lock is free or its holder did not say which instant it
     *         fires (ShedLock's own format, an older version of onebeat)
     */
    Optional<Holder> holder(String name) {
        return jdbc.sql("""
                        SELECT l.locked_by, l.locked_at AT TIME ZONE 'UTC',
                               -- database time on both sides: last_checkin_time is the holder's own clock, which
                               -- may be minutes off; the database stamps each check-in (migration 017)
                               EXISTS (SELECT 1 FROM qrtz_scheduler_state s
                                       WHERE s.instance_name = split_part(l.locked_by, ' ', 1)
                                         AND s.onebeat_checked_in_at + 2 * s.checkin_interval * interval '1 millisecond'
                                             >= clock_timestamp())
                        FROM shedlock l
                        WHERE l.name = ? AND l.lock_until > timezone('utc', CURRENT_TIMESTAMP)
                        """)
                .param(name)
                .query((rs, row) -> {
                    Instant lockedAt = rs.getTimestamp(2).toInstant();
                    boolean alive = rs.getBoolean(3);
                    String lockedBy = rs.getString(1);
                    return instant(lockedBy).map(at -> new Holder(at, lockedAt, alive, scheduled(lockedBy)));
                })
                .optional()
                .flatMap(holder -> holder);
    }

    private static boolean scheduled(String lockedBy) {
        String[] parts = lockedBy.split(" ");
        return parts.length < 3 || parts[1].equals(SCHEDULED);
    }

    private static Optional<Instant> instant(String lockedBy) {
        int space = lockedBy.lastIndexOf(' ');
        try {
            return space < 0 ? Optional.empty() : Optional.of(Instant.parse(lockedBy.substring(space + 1)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * Pins, until the caller's transaction ends, a lock held by a fire of another instant than {@code instant}: the
     * row is read {@code FOR SHARE}, so that its holder's release ({@link #release}) and any fire's taking of the lock
     * (ShedLock's update), a fire of {@code instant} among them, wait for the caller's commit.
     *
     * @return whether the lock is held, by database time, by a fire of another instant (or by a holder that did not
     *     say which it fires)
     */
    boolean heldByAnotherInstant(String name, Instant instant) {
        return !jdbc.sql("""
                        SELECT 1 FROM shedlock
                        WHERE name = ? AND lock_until > timezone('utc', CURRENT_TIMESTAMP)
                          AND split_part(locked_by, ' ', 3) <> ?
                        FOR SHARE""")
                .params(name, instant.toString())
                .query(Integer.class).list().isEmpty();
    }

    /**
     * Releases a job's lock if it is still the one taken at {@code lockedAt} (deletes it, if {@code delete}). A fire that outlived its
     * {@code lockAtMostFor} finds a newer holder's row and leaves it alone.
     *
     * @return whether the lock was released
     */
    boolean release(String name, String lockedAt, boolean delete) {
        // locked_at fences the release: a newer holder has a newer locked_at. A lock of one instant is not needed
        // again once its fire ended: its row goes, so that such rows do not pile up
        return jdbc.sql(delete ? """
                        DELETE FROM shedlock WHERE name = ? AND locked_at = CAST(? AS timestamp)
                        """ : """
                        UPDATE shedlock SET lock_until = timezone('utc', CURRENT_TIMESTAMP)
                        WHERE name = ? AND locked_at = CAST(? AS timestamp)
                        """)
                .params(name, lockedAt)
                .update() == 1;
    }

    /**
     * Puts a waiting fire's instant into a job's next-waiter row, unless a waiter of an older instant is in it: of
     * the fires waiting for a job's lock, the oldest instant takes it first. The row is a ShedLock-format row that
     * expires at {@code until} by database time, so a waiter that died leaves no trace for longer than its wait.
     *
     * @param name the next-waiter row's name
     * @param instant the waiting fire's instant
     * @param until how long from now the row holds
     * @return whether this instant is now the next waiter (alone, or with other fires of the same instant)
     */
    boolean standNext(String name, Instant instant, Duration until) {
        // locked_by holds the instant as zero-padded epoch milliseconds, so text order is time order
        return jdbc.sql("""
                        INSERT INTO shedlock (name, lock_until, locked_at, locked_by)
                        VALUES (?, timezone('utc', CURRENT_TIMESTAMP) + ? * interval '1 millisecond',
                                timezone('utc', CURRENT_TIMESTAMP), ?)
                        ON CONFLICT (name) DO UPDATE SET lock_until = EXCLUDED.lock_until,
                            locked_at = EXCLUDED.locked_at, locked_by = EXCLUDED.locked_by
                        WHERE shedlock.lock_until <= timezone('utc', CURRENT_TIMESTAMP)
                           OR shedlock.locked_by >= EXCLUDED.locked_by
                        """)
                .params(name, Math.max(1, until.toMillis()), nextKey(instant))
                .update() == 1;
    }

    /** Takes a waiter's instant out of the next-waiter row, if it is still the one there. */
    void leaveNext(String name, Instant instant) {
        jdbc.sql("DELETE FROM shedlock WHERE name = ? AND locked_by = ?").params(name, nextKey(instant)).update();
    }

    /** @return an instant as the next-waiter row writes it */
    static String nextKey(Instant instant) {
        return String.format(Locale.ROOT, "%020d", instant.toEpochMilli());
    }

    private static Array array(Connection con, List<String> values) throws SQLException {
        return con.createArrayOf("varchar", values.toArray(String[]::new));
    }

    /** @return per job, the instants whose single fire holds one of the job's locks now (a batch's are not seen) */
    Map<String, Set<Instant>> running() {
        // the lock rows of the jobs (JobLocks: onebeat:<job>, or onebeat:<job>@<epoch millis> under overlap policy
        // allow); locked_by ends in the instant the holder fires
        Map<String, Set<Instant>> running = new HashMap<>();
        jdbc.sql("""
                        SELECT name, locked_by FROM shedlock
                        WHERE name LIKE 'onebeat:%' AND lock_until > timezone('utc', CURRENT_TIMESTAMP)""")
                .query((ResultSet rs) -> {
                    String name = rs.getString(1).substring(JobLocks.PREFIX.length());
                    String holder = rs.getString(2);
                    int space = holder == null ? -1 : holder.lastIndexOf(' ');
                    if (space < 0) {
                        return;
                    }
                    Instant instant;
                    try {
                        instant = Instant.parse(holder.substring(space + 1));
                    } catch (DateTimeParseException e) {
                        // ShedLock's own format, written before the holder says which instant it fires
                        return;
                    }
                    String perInstant = "@" + instant.toEpochMilli();
                    String job = name.endsWith(perInstant) ? name.substring(0, name.length() - perInstant.length()) : name;
                    running.computeIfAbsent(job, key -> new HashSet<>()).add(instant);
                });
        return running;
    }

    /**
     * Deletes up to {@code limit} lock rows that ran out before {@code before} and that no fire takes again: those of a
     * job no longer in the catalog, of one instant ({@code onebeat:<job>@<millis>}, overlap policy allow: never the
     * name of a job) and of a backfill, on the caller's connection. {@code lock_until} is UTC without a zone
     * (ShedLock); an expired row is not held, and a lock asked for inserts it again
     * ({@link JobLockConfiguration.RowsComeAndGo}).
     */
    public static int purgeEnded(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM shedlock WHERE name IN (
                    SELECT s.name FROM shedlock s WHERE s.lock_until < timezone('utc', ?::timestamptz)
                    AND (s.name LIKE 'onebeat-backfill:%'
                         OR (s.name LIKE 'onebeat:%' OR s.name LIKE 'onebeat-waiting:%' OR s.name LIKE 'onebeat-next:%')
                            AND NOT EXISTS (SELECT 1 FROM onebeat_job j
                                            WHERE j.name = substring(s.name FROM position(':' IN s.name) + 1)))
                    LIMIT ? FOR UPDATE OF s SKIP LOCKED)""", before, limit);
    }

    /**
     * A row of {@code shedlock}; a lock is held while {@code lockUntil} is in the future (database time).
     *
     * @param name {@code onebeat:<job>}
     * @param lockUntil when it expires, or when it was released
     * @param lockedAt when it was last taken
     * @param lockedBy the replica that took it
     */
    public record Lock(String name, Instant lockUntil, Instant lockedAt, String lockedBy) {
    }

    /**
     * There is a row per job that ever fired, so 10,000 jobs make 10,000 rows: a caller asks for a few. A batch
     * locks its jobs' rows without writing them ({@link #LOCK_ALL}): a job fired only in batches shows when its row
     * was created, and by whom.
     *
     * @param heldOnly only the locks held now (until a time still ahead, database time)
     * @param limit at most this many
     * @return the most recently taken locks first
     */
    public List<Lock> latest(boolean heldOnly, int limit) {
        // ShedLock's usingDbTime() writes UTC wall-clock values into columns without a zone
        return jdbc.sql("SELECT name, lock_until, locked_at, locked_by FROM shedlock"
                        + (heldOnly ? " WHERE lock_until > timezone('utc', now())" : "")
                        + " ORDER BY locked_at DESC, name LIMIT ?")
                .param(limit)
                .query((rs, row) -> new Lock(rs.getString(1), utc(rs.getObject(2, LocalDateTime.class)),
                        utc(rs.getObject(3, LocalDateTime.class)), rs.getString(4)))
                .list();
    }

    private static Instant utc(LocalDateTime time) {
        return time.toInstant(ZoneOffset.UTC);
    }
}
