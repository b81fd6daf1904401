package dev.onebeat.scheduler.engine.fire;

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
 * {@code idle_in_transaction_session_timeout}: a replica that stalls loses its slice to another after it, one that
 * dies at once, with its session.
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
            SELECT set_config('idle_in_transaction_session_timeout', ?, true),
                   set_config('lock_timeout', ?, true)""";
    private static final String COLUMNS = "schedule_key, scheduled_at, slice, trigger_kind, jobs, created_by";
    private static final String CLAIM_ANY = "SELECT " + COLUMNS
            + " FROM onebeat_fire_slice ORDER BY scheduled_at, schedule_key, slice LIMIT 1 FOR UPDATE SKIP LOCKED";
    private static final String CLAIM_NEXT = "SELECT " + COLUMNS + " FROM onebeat_fire_slice"
            + " WHERE schedule_key = ? AND scheduled_at = ? ORDER BY slice LIMIT 1 FOR UPDATE SKIP LOCKED";
    private static final String CLAIM_LEFT = "SELECT " + COLUMNS + " FROM onebeat_fire_slice"
            + " WHERE schedule_key = ? AND scheduled_at = ? ORDER BY slice FOR UPDATE";
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
            // one text per slice, split again by the server: JDBC has no array of arrays of uneven length
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
        return claim(lease, Duration.ZERO, CLAIM_ANY, ps -> { });
    }

    /** Claims the first slice of the instant that no other replica holds. */
    SliceClaim claimNext(Duration lease, String scheduleKey, Instant scheduledAt) throws SQLException {
        return claim(lease, Duration.ZERO, CLAIM_NEXT, instant(scheduleKey, scheduledAt));
    }

    /**
     * Claims every slice of the instant still there, waiting up to {@code wait} for those other replicas hold: a
     * replica that fires its slice deletes it, so the claim holds those whose replica died or gave up.
     */
    SliceClaim claimLeft(Duration lease, Duration wait, String scheduleKey, Instant scheduledAt) throws SQLException {
        return claim(lease, wait, CLAIM_LEFT, instant(scheduleKey, scheduledAt));
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

    private SliceClaim claim(Duration lease, Duration wait, String sql, Binder binder) throws SQLException {
        Connection con = dataSource.getConnection();
        try {
            con.setAutoCommit(false);
            try (PreparedStatement begin = con.prepareStatement(BEGIN)) {
                begin.setString(1, lease.toMillis() + "ms");
                begin.setString(2, wait.toMillis() + "ms");
                begin.execute();
            }
            List<Slice> slices = new ArrayList<>();
            try (PreparedStatement ps = con.prepareStatement(sql)) {
                binder.bind(ps);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        slices.add(new Slice(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getInt(3),
                                FireTrigger.valueOf(rs.getString(4).toUpperCase(Locale.ROOT)),
                                Arrays.asList((String[]) rs.getArray(5).getArray()), rs.getString(6)));
                    }
                }
            }
            return new SliceClaim(con, slices);
        } catch (SQLException | RuntimeException | Error e) {
            SliceClaim.abandon(con);
            throw e;
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
         * Deletes the claimed slices and commits: they are fired.
         *
         * @throws SQLException when the claim was lost (the server ended its transaction past its lease, or the
         *     connection broke): the slices are another replica's again, which fires them once more, and the ledger
         *     turns what had committed into duplicates
         */
        void done() throws SQLException {
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
        public void close() {
            if (!ended) {
                ended = true;
                abandon(con);
            } else {
                try {
                    con.close();
                } catch (SQLException e) {
                    // gone already
                }
            }
        }

        private static void abandon(Connection con) {
            try {
                con.rollback();
            } catch (SQLException e) {
                // the session is gone, and its transaction with it
            }
            try {
                con.close();
            } catch (SQLException e) {
                // gone already
            }
        }
    }
}
