package dev.onebeat.scheduler.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The relay's database work alone, no publish, in five designs, on the same refilled outbox: rows drained per second
 * by one loop. Written to choose the relay's claim design by measurement (issue 29): run it with
 * {@code bench/relay-claims.sh [rows] [batch] [rounds]}.
 * <ul>
 *   <li>{@code lease}: the relay as it was, a claim {@code UPDATE … RETURNING} that writes status, lease and attempts
 *   in its own transaction, then a mark {@code UPDATE} in another: two row versions per row;</li>
 *   <li>{@code lock}: the rows locked by {@code SELECT … FOR UPDATE SKIP LOCKED} in a transaction kept open through the
 *   publish, then marked by one {@code UPDATE} and committed: one row version per row;</li>
 *   <li>{@code lock and delete}: the same, the rows deleted instead of marked ({@code onebeat.relay.on-publish=delete}):
 *   no new row version, no index entry;</li>
 *   <li>{@code cursor}: no write per row (PgQ's design, not built in the relay), on a copy of the outbox whose rows
 *   carry the id of the transaction that wrote them ({@code xid8}, set by a column default, indexed with the row's
 *   id), so that the other designs run on the outbox as it is; a reader reads the
 *   rows of the transactions that committed between two snapshots of the server ({@code pg_current_snapshot()}), a
 *   page at a time in (transaction, id) order, and writes where it stands to a one-row cursor table after each page.
 *   A transaction still open when a snapshot is taken is read in a later window, whatever its rows' ids.</li>
 *   <li>{@code cursor and mark}: the cursor's read with each page marked published as the relay marks its rows, in
 *   the transaction that moves the cursor: a relay that keeps every row's status and drops only the lock.</li>
 * </ul>
 *
 * <p>Both tables are filled 1,000 rows a transaction, as fires commit theirs. The cursor's price is on the insert
 * side, the column and its index: the fill of the copy is timed against the fill of the outbox before it.
 */
public final class RelayClaimDesigns {

    private static final String QUEUE = "reminders";

    private static final String COLUMNS = RawClaimLoop.COLUMNS;

    private static final String DUE = RawClaimLoop.DUE;

    private static final String LEASE_CLAIM = """
            UPDATE onebeat_task t SET status = 'claimed', locked_by = 'bench',
                   locked_until = now() + interval '60 seconds', attempts = t.attempts + 1
            WHERE t.id = ANY(ARRAY(""" + DUE + "))\nRETURNING " + COLUMNS;

    private static final String LEASE_MARK = """
            UPDATE onebeat_task t SET status = 'published', published_at = now(), locked_by = NULL,
                   locked_until = NULL, last_error = NULL
            FROM unnest(?::bigint[], ?::int[]) AS m(id, attempts)
            WHERE t.id = m.id AND t.attempts = m.attempts AND t.status = 'claimed' AND t.locked_by = 'bench'
            """;

    private static final String CURSOR_TABLE = "onebeat_task_cursor";

    /**
     * The outbox's copy with the transaction id column and its index, and the cursor's row. The index holds pending rows
     * only, as the outbox's due index does, so that marking a row published writes no entry to it.
     */
    private static final String CURSOR_SETUP = """
            CREATE TABLE onebeat_task_cursor (LIKE onebeat_task INCLUDING ALL);
            ALTER TABLE onebeat_task_cursor ADD COLUMN tx xid8 DEFAULT pg_current_xact_id();
            CREATE INDEX onebeat_task_cursor_tx_idx ON onebeat_task_cursor (tx, id) WHERE status = 'pending';
            CREATE TABLE onebeat_relay_cursor (id int PRIMARY KEY, previous pg_snapshot, current pg_snapshot,
                                               last_tx xid8, last_id bigint);
            INSERT INTO onebeat_relay_cursor VALUES (1, pg_current_snapshot(), pg_current_snapshot(), '0', 0)""";

    // the rows of the transactions committed between the two snapshots, after where the reader stands: those below
    // the earlier snapshot's xmin were all visible to it, those from the later one's xmax on to none. The text of the
    // id is named apart: named tx, it would be what ORDER BY tx sorts (as text, all rows, no index)
    private static final String CURSOR_PAGE = "SELECT " + COLUMNS + ", tx::text AS tx_text FROM " + CURSOR_TABLE + """
             WHERE status = 'pending' AND queue = ? AND tx >= pg_snapshot_xmin(?::pg_snapshot) AND tx < pg_snapshot_xmax(?::pg_snapshot)
              AND pg_visible_in_snapshot(tx, ?::pg_snapshot) AND NOT pg_visible_in_snapshot(tx, ?::pg_snapshot)
              AND (tx, id) > (?::xid8, ?)
            ORDER BY tx, id LIMIT ?""";

    private static final String CURSOR_MOVE = """
            UPDATE onebeat_relay_cursor SET previous = ?::pg_snapshot, current = ?::pg_snapshot, last_tx = ?::xid8,
                   last_id = ? WHERE id = 1""";

    // the cursor's page marked as the relay marks its rows, for the design that keeps each row's status
    private static final String CURSOR_MARK = """
            UPDATE onebeat_task_cursor t SET status = 'published', published_at = now(), attempts = t.attempts + 1,
                   last_error = NULL
            WHERE t.id = ANY(?::bigint[])
            """;

    private static final String OUTBOX = "onebeat_task";

    private static final int FILL_TRANSACTION = 1_000;

    private RelayClaimDesigns() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        if (rows < 1 || batch < 1 || rounds < 1) {
            throw new IllegalArgumentException("rows, batch and rounds must each be at least 1, were " + rows + ", "
                    + batch + ", " + rounds);
        }
        String admin = System.getenv().getOrDefault("ONEBEAT_BENCH_JDBC_URL",
                "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
        try (BenchDatabase database = BenchDatabase.create(admin);
             RelayOutbox outbox = RelayOutbox.create(database, QUEUE)) {
            System.out.printf(Locale.ROOT, "relay claim designs: %,d rows, batch %,d, %d rounds each, alternating;"
                    + " the outbox filled %,d rows a transaction%n", rows, batch, rounds, FILL_TRANSACTION);
            try (Connection connection = outbox.pool().getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute(CURSOR_SETUP);
            }
            List<Double> lease = new ArrayList<>();
            List<Double> lock = new ArrayList<>();
            List<Double> lockDelete = new ArrayList<>();
            List<Double> cursor = new ArrayList<>();
            List<Double> cursorMarked = new ArrayList<>();
            List<Double> fillPlain = new ArrayList<>();
            List<Double> fillCursor = new ArrayList<>();
            for (int round = 0; round <= rounds; round++) {
                outbox.refill(OUTBOX, rows, FILL_TRANSACTION);
                double leaseRate = drain(outbox, rows, batch, false);
                double plainRate = rows / (outbox.refill(OUTBOX, rows, FILL_TRANSACTION) / 1e9);
                double lockRate = drain(outbox, rows, batch, true);
                outbox.refill(OUTBOX, rows, FILL_TRANSACTION);
                double deleteRate = drain(outbox, rows, batch, true, true);
                String start = snapshot(outbox);
                double cursorFillRate = rows / (outbox.refill(CURSOR_TABLE, rows, FILL_TRANSACTION) / 1e9);
                double cursorRate = cursorDrain(outbox, start, rows, batch, false);
                start = snapshot(outbox);
                outbox.refill(CURSOR_TABLE, rows, FILL_TRANSACTION);
                double cursorMarkedRate = cursorDrain(outbox, start, rows, batch, true);
                if (round == 0) {
                    continue; // warm-up: the JIT and the server's caches
                }
                lease.add(leaseRate);
                lock.add(lockRate);
                lockDelete.add(deleteRate);
                cursor.add(cursorRate);
                cursorMarked.add(cursorMarkedRate);
                fillPlain.add(plainRate);
                fillCursor.add(cursorFillRate);
                System.out.printf(Locale.ROOT, "  round %d: lease %,.0f rows/s, lock %,.0f rows/s, lock and delete %,.0f rows/s, cursor %,.0f rows/s,"
                        + " cursor and mark %,.0f rows/s; fill without the cursor's column %,.0f rows/s, with it %,.0f rows/s%n", round, leaseRate,
                        lockRate, deleteRate, cursorRate, cursorMarkedRate, plainRate, cursorFillRate);
            }
            double leaseMedian = median(lease);
            double lockMedian = median(lock);
            double cursorMedian = median(cursor);
            System.out.printf(Locale.ROOT, "median: lease (claim + mark) %,.0f rows/s; lock (lock + mark) %,.0f rows/s; "
                    + "%.2fx%n", leaseMedian, lockMedian, lockMedian / leaseMedian);
            System.out.printf(Locale.ROOT, "median: cursor (read between snapshots, no write per row) %,.0f rows/s: "
                    + "%.2fx lock; the fill with its column and index %,.0f rows/s against %,.0f without (%.0f %%)%n",
                    cursorMedian, cursorMedian / lockMedian, median(fillCursor), median(fillPlain),
                    100 * median(fillCursor) / median(fillPlain));
            System.out.printf(Locale.ROOT, "median: lock and delete (the published rows deleted, not marked) %,.0f rows/s: "
                    + "%.2fx lock%n", median(lockDelete), median(lockDelete) / lockMedian);
            System.out.printf(Locale.ROOT, "median: cursor and mark (read between snapshots, each page marked "
                    + "published in its transaction, as the relay marks its rows) %,.0f rows/s: %.2fx lock%n",
                    median(cursorMarked), median(cursorMarked) / lockMedian);
        }
    }

    private static String snapshot(RelayOutbox outbox) throws SQLException {
        try (Connection connection = outbox.pool().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT pg_current_snapshot()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * Reads every row committed since the snapshot {@code start}, window after window, a page at a time, moving the
     * cursor row after each page, until a window holds no row.
     */
    private static double cursorDrain(RelayOutbox outbox, String start, int rows, int batch, boolean mark)
            throws SQLException {
        long begin = System.nanoTime();
        int drained = 0;
        long[] ids = new long[rows];
        try (Connection connection = outbox.pool().getConnection();
             PreparedStatement page = connection.prepareStatement(CURSOR_PAGE);
             PreparedStatement move = connection.prepareStatement(CURSOR_MOVE);
             PreparedStatement marks = connection.prepareStatement(CURSOR_MARK)) {
            // marked, each page's marks and the cursor's move commit together
            connection.setAutoCommit(!mark);
            String previous = start;
            String current = snapshot(outbox);
            String lastTx = "0";
            long lastId = 0;
            boolean windowEmpty = true;
            while (true) {
                int read = 0;
                page.setString(1, outbox.queue());
                page.setString(2, previous);
                page.setString(3, current);
                page.setString(4, current);
                page.setString(5, previous);
                page.setString(6, lastTx);
                page.setLong(7, lastId);
                page.setInt(8, batch);
                try (ResultSet rs = page.executeQuery()) {
                    while (rs.next()) {
                        lastId = rs.getLong(1);
                        if (drained + read < rows) {
                            ids[drained + read] = lastId;
                        }
                        read++;
                        read(rs);
                        lastTx = rs.getString(11);
                    }
                }
                if (mark && read > 0) {
                    Object[] pageIds = Arrays.stream(ids, Math.min(drained, rows), Math.min(drained + read, rows))
                            .boxed().toArray();
                    marks.setArray(1, connection.createArrayOf("bigint", pageIds));
                    marks.executeUpdate();
                }
                drained += read;
                windowEmpty &= read == 0;
                if (read < batch) {
                    if (windowEmpty) {
                        break;
                    }
                    // the window is read: the next begins where this one ended
                    previous = current;
                    current = snapshot(outbox);
                    lastTx = "0";
                    lastId = 0;
                    windowEmpty = true;
                }
                move.setString(1, previous);
                move.setString(2, current);
                move.setString(3, lastTx);
                move.setLong(4, lastId);
                move.executeUpdate();
                if (mark) {
                    connection.commit();
                }
            }
            if (mark) {
                connection.commit();
            }
            connection.setAutoCommit(true);
        }
        double rate = rows / ((System.nanoTime() - begin) / 1e9);
        // a row read twice and one missed would leave the count right: the ids are checked too
        if (drained != rows || Arrays.stream(ids).distinct().count() != rows) {
            throw new IllegalStateException("the cursor read " + drained + " rows of " + rows + ", "
                    + Arrays.stream(ids).limit(Math.min(drained, rows)).distinct().count() + " distinct");
        }
        return rate;
    }

    private static double drain(RelayOutbox outbox, int rows, int batch, boolean lock) throws SQLException {
        return drain(outbox, rows, batch, lock, false);
    }

    /** @param delete with {@code lock}: the rows deleted instead of marked */
    private static double drain(RelayOutbox outbox, int rows, int batch, boolean lock, boolean delete)
            throws SQLException {
        long start = System.nanoTime();
        int drained = 0;
        try (Connection connection = outbox.pool().getConnection()) {
            Array queues = connection.createArrayOf("varchar", new Object[] {QUEUE});
            while (true) {
                int round = !lock ? leaseRound(connection, queues, batch)
                        : RawClaimLoop.round(connection, queues, batch, delete ? RawClaimLoop.DELETE : RawClaimLoop.MARK);
                if (round == 0) {
                    break;
                }
                drained += round;
            }
        }
        if (drained != rows) {
            throw new IllegalStateException("drained " + drained + " rows of " + rows);
        }
        return rows / ((System.nanoTime() - start) / 1e9);
    }

    private static int leaseRound(Connection connection, Array queues, int batch) throws SQLException {
        connection.setAutoCommit(true);
        List<Long> ids = new ArrayList<>(batch);
        List<Integer> attempts = new ArrayList<>(batch);
        claim(connection, LEASE_CLAIM, queues, batch, ids, attempts);
        if (ids.isEmpty()) {
            return 0;
        }
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET LOCAL plan_cache_mode = force_custom_plan");
        }
        try (PreparedStatement mark = connection.prepareStatement(LEASE_MARK)) {
            mark.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
            mark.setArray(2, connection.createArrayOf("integer", attempts.toArray()));
            mark.executeUpdate();
        }
        connection.commit();
        return ids.size();
    }

    /** Runs a claim, collecting the ids and attempts of its rows, and reads every column as the relay does. */
    private static void claim(Connection connection, String sql, Array queues, int batch, List<Long> ids,
                              List<Integer> attempts) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(sql)) {
            claim.setArray(1, queues);
            claim.setInt(2, batch);
            claim.setInt(3, batch);
            try (ResultSet claimed = claim.executeQuery()) {
                while (claimed.next()) {
                    ids.add(claimed.getLong(1));
                    attempts.add(claimed.getInt(2));
                    read(claimed);
                }
            }
        }
    }

    /** Reads every column, as the relay does to build its tasks. */
    private static void read(ResultSet row) throws SQLException {
        for (int column = 3; column <= 10; column++) {
            row.getObject(column);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
