package dev.onebeat.scheduler.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The relay's database work alone, no publish, in two designs, on the same refilled outbox: rows drained per second
 * by one loop. Written to choose the relay's claim design by measurement (issue 29): run it with
 * {@code bench/relay-claims.sh [rows] [batch] [rounds]}.
 * <ul>
 *   <li>{@code lease}: the relay as it was, a claim {@code UPDATE … RETURNING} that writes status, lease and attempts
 *   in its own transaction, then a mark {@code UPDATE} in another: two row versions per row;</li>
 *   <li>{@code lock}: the rows locked by {@code SELECT … FOR UPDATE SKIP LOCKED} in a transaction kept open through the
 *   publish, then marked by one {@code UPDATE} and committed: one row version per row.</li>
 * </ul>
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

    private RelayClaimDesigns() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String admin = System.getenv().getOrDefault("ONEBEAT_BENCH_JDBC_URL",
                "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
        try (BenchDatabase database = BenchDatabase.create(admin);
             RelayOutbox outbox = RelayOutbox.create(database, QUEUE)) {
            System.out.printf(Locale.ROOT, "relay claim designs: %,d rows, batch %,d, %d rounds each, alternating%n",
                    rows, batch, rounds);
            List<Double> lease = new ArrayList<>();
            List<Double> lock = new ArrayList<>();
            for (int round = 0; round <= rounds; round++) {
                outbox.refill(rows);
                double leaseRate = drain(outbox, rows, batch, false);
                outbox.refill(rows);
                double lockRate = drain(outbox, rows, batch, true);
                if (round == 0) {
                    continue; // warm-up: the JIT and the server's caches
                }
                lease.add(leaseRate);
                lock.add(lockRate);
                System.out.printf(Locale.ROOT, "  round %d: lease %,.0f rows/s, lock %,.0f rows/s%n", round, leaseRate,
                        lockRate);
            }
            double leaseMedian = median(lease);
            double lockMedian = median(lock);
            System.out.printf(Locale.ROOT, "median: lease (claim + mark) %,.0f rows/s; lock (lock + mark) %,.0f rows/s; "
                    + "%.2fx%n", leaseMedian, lockMedian, lockMedian / leaseMedian);
        }
    }

    private static double drain(RelayOutbox outbox, int rows, int batch, boolean lock) throws SQLException {
        long start = System.nanoTime();
        int drained = 0;
        try (Connection connection = outbox.pool().getConnection()) {
            Array queues = connection.createArrayOf("varchar", new Object[] {QUEUE});
            while (true) {
                int round = lock ? RawClaimLoop.round(connection, queues, batch) : leaseRound(connection, queues, batch);
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
