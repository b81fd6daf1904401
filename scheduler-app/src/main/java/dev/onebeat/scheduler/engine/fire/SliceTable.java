package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.boot.database.HeldTransactions;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Every statement on {@code onebeat_fire_slice}: the slices of a large instant, written by the replica that acquired
 * its trigger, claimed by row lock ({@code FOR UPDATE SKIP LOCKED}) in a transaction held open while the slice fires,
 * and deleted in that transaction once it has. The claim's lease is the transaction's
 * {@code idle_in_transaction_session_timeout}, kept alive while the slice fires: a replica that stalls loses its slice
 * to another after it (the server ends its session), one whose process dies at once, with its connection (a host that
 * vanishes without closing it, after the lease).
 */
@Component
public class SliceTable {

    /** One slice: its instant, the kind of fire the acquiring replica made, and its jobs. */
    public record Slice(String scheduleKey, Instant scheduledAt, int slice, FireTrigger trigger, List<String> jobs,
                        String createdBy) {

        public Slice {
            jobs = List.copyOf(jobs);
        }
    }

    // a recovery of an instant whose slices are partly fired joins what is left, rather than writing them all again
    private static final String CREATE = """
            INSERT INTO onebeat_fire_slice (schedule_key, scheduled_at, slice, trigger_kind, jobs, created_by)
            SELECT ?, ?, s.slice, ?, string_to_array(s.jobs, chr(31)), ?
            FROM unnest(?::int[], ?::text[]) AS s(slice, jobs)
            WHERE NOT EXISTS (SELECT 1 FROM onebeat_fire_slice WHERE schedule_key = ? AND scheduled_at = ?)
            ON CONFLICT DO NOTHING""";
    private static final String BEGIN = """
            SELECT set_config('idle_in_transaction_session_timeout', ?, true)""";
    // below the pool's socketTimeout (5 s), which would otherwise cut the wait and take the pool's other connections
    // with it: lock_timeout bounds each lock the statement waits for, statement_timeout the statement, which may wait
    // for one slice after another; a wait that times out (55P03, 57014) is simply made again
    private static final String BEGIN_WAITING = BEGIN + ", set_config('lock_timeout', '2s', true), "
            + "set_config('statement_timeout', '3s', true)";
    private static final String COLUMNS = "schedule_key, scheduled_at, slice, trigger_kind, jobs, created_by";
    private static final String CLAIM_ANY = "SELECT " + COLUMNS
            + " FROM onebeat_fire_slice ORDER BY scheduled_at, schedule_key, slice LIMIT 1 FOR UPDATE SKIP LOCKED";
    private static final String CLAIM_NEXT = "SELECT " + COLUMNS + " FROM onebeat_fire_slice"
            + " WHERE schedule_key = ? AND scheduled_at = ? ORDER BY slice LIMIT 1 FOR UPDATE SKIP LOCKED";
    private static final String CLAIM_LEFT = "SELECT " + COLUMNS + " FROM onebeat_fire_slice"
            + " WHERE schedule_key = ? AND scheduled_at = ? ORDER BY slice LIMIT 1 FOR UPDATE";
    private static final String DELETE = """
            DELETE FROM onebeat_fire_slice WHERE schedule_key = ? AND scheduled_at = ? AND slice = ANY (?::int[])""";
    private static final char SEPARATOR = 31;

    private final DataSource dataSource;
    private final JdbcClient jdbc;

    SliceTable(DataSource dataSource, JdbcClient jdbc) {
        this.dataSource = dataSource;
        this.jdbc = jdbc;
    }

    /**
     * Writes the slices of an instant, unless it has some already: then a recovery of the instant joins those left.
     *
     * @param slices the jobs of each slice, numbered from 0 in this order
     * @return slices written; 0 when the instant had some
     */
    int create(String scheduleKey, Instant scheduledAt, FireTrigger trigger, String node, List<List<String>> slices) {
        Integer[] numbers = new Integer[slices.size()];
        String[] jobs = new String[slices.size()];
        for (int i = 0; i < slices.size(); i++) {
            numbers[i] = i;
            // one text per slice, split again by the server: JDBC has no array of arrays of uneven length; a job name
            // holds no control character (JobNames), so the unit separator cannot occur in one
            jobs[i] = String.join(String.valueOf(SEPARATOR), slices.get(i));
        }
        Timestamp at = Timestamp.from(scheduledAt);
        return jdbc.sql(CREATE).params(scheduleKey, at, trigger.column(), node, numbers, jobs, scheduleKey, at)
                .update();
    }

    /** @return whether any slice of any instant waits: one cheap look before a claim */
    boolean anyWaiting() {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM onebeat_fire_slice)").query(Boolean.class).single();
    }

    /** Claims the first slice of any instant that no other replica holds; the claim is empty when there was none. */
    SliceClaim claimAny(Duration lease) throws SQLException {
        return claim(lease, false, CLAIM_ANY, ps -> { });
    }

    /** Claims the first slice of the instant that no other replica holds. */
    SliceClaim claimNext(Duration lease, String scheduleKey, Instant scheduledAt) throws SQLException {
        return claim(lease, false, CLAIM_NEXT, instant(scheduleKey, scheduledAt));
    }

    /**
     * Claims the first slice of the instant still there, waiting for it while another replica holds it: a replica
     * that fires its slice deletes it, so the claim gets one whose replica died or gave up, or none once all are fired.
     *
     * @throws SQLException SQLState {@code 55P03} or {@code 57014} when a slice was still held after 2 s, or the
     *     statement ran 3 s: the caller waits again
     */
    SliceClaim claimLeft(Duration lease, String scheduleKey, Instant scheduledAt) throws SQLException {
        return claim(lease, true, CLAIM_LEFT, instant(scheduleKey, scheduledAt));
    }

    /** @return whether the claim failed only because the slice was still held when its wait ran out */
    static boolean stillHeld(SQLException e) {
        return "55P03".equals(e.getSQLState()) || "57014".equals(e.getSQLState());
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private static Binder instant(String scheduleKey, Instant scheduledAt) {
        return ps -> {
            ps.setString(1, scheduleKey);
            ps.setTimestamp(2, Timestamp.from(scheduledAt));
        };
    }

    private SliceClaim claim(Duration lease, boolean waits, String sql, Binder binder) throws SQLException {
        Connection con = dataSource.getConnection();
        try {
            con.setAutoCommit(false);
            try (PreparedStatement begin = con.prepareStatement(waits ? BEGIN_WAITING : BEGIN)) {
                begin.setString(1, lease.toMillis() + "ms");
                begin.execute();
            }
            List<Slice> slices = new ArrayList<>();
            try (PreparedStatement ps = con.prepareStatement(sql)) {
                binder.bind(ps);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        slices.add(new Slice(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getInt(3),
                                trigger(rs.getString(4)), Arrays.asList((String[]) rs.getArray(5).getArray()),
                                rs.getString(6)));
                    }
                }
            }
            return new SliceClaim(con, slices);
        } catch (SQLException | RuntimeException | Error e) {
            HeldTransactions.abandon(con);
            throw e;
        }
    }

    /** A kind of fire this version does not know (a newer replica wrote it) fires as the schedule's own. */
    private static FireTrigger trigger(String column) {
        try {
            return FireTrigger.valueOf(column.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return FireTrigger.SCHEDULED;
        }
    }

    /**
     * Slices locked by a transaction on a connection of their own until {@link #done} deletes them and commits, or
     * {@link #close} gives them back.
     */
    static final class SliceClaim implements AutoCloseable {

        private final Connection con;
        private final List<Slice> slices;
        private boolean ended;

        private SliceClaim(Connection con, List<Slice> slices) {
            this.con = con;
            this.slices = List.copyOf(slices);
        }

        /** @return the slices claimed, of one instant; empty for none */
        List<Slice> slices() {
            return slices;
        }

        /**
         * Runs a statement on the claim's transaction, which starts its idle time, and so its lease, again: called
         * while the slice fires on other connections, so that only a replica that stalls loses its claim.
         */
        synchronized void keepAlive() {
            if (ended) {
                return;
            }
            try (var statement = con.createStatement()) {
                statement.execute("SELECT 1");
            } catch (SQLException e) {
                // the claim is lost: its delete will fail, and another replica fires the slice again
            }
        }

        /**
         * Deletes the claimed slices and commits: they are fired.
         *
         * @throws SQLException when the claim was lost (the server ended its transaction past its lease, or the
         *     connection broke): the slices are another replica's again, which fires them once more, and the ledger
         *     turns what had committed into duplicates
         */
        synchronized void done() throws SQLException {
            if (!slices.isEmpty()) {
                Slice first = slices.get(0);
                try (PreparedStatement ps = con.prepareStatement(DELETE)) {
                    ps.setString(1, first.scheduleKey());
                    ps.setTimestamp(2, Timestamp.from(first.scheduledAt()));
                    Array numbers = con.createArrayOf("int", slices.stream().map(Slice::slice).toArray());
                    ps.setArray(3, numbers);
                    ps.executeUpdate();
                }
            }
            con.commit();
            ended = true;
        }

        @Override
        public synchronized void close() {
            boolean committed = ended;
            ended = true;
            HeldTransactions.end(con, committed);
        }
    }
}
