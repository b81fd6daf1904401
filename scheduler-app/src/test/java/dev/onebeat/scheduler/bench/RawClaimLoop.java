package dev.onebeat.scheduler.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * The database's part of a relay and nothing else, written by hand: threads that each lock a batch of due rows
 * ({@code SELECT … FOR UPDATE SKIP LOCKED}, every column read as a relay reads it), mark them published (or delete
 * them) in the same transaction and commit, until none is left. No publish, no task built: the floor under any relay
 * on this outbox, the baseline of issue 29's relay target. Also the {@code lock} design of {@link RelayClaimDesigns}.
 */
final class RawClaimLoop {

    static final String COLUMNS = """
            id, attempts, idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id, payload::text
            """;

    /** The ids of a batch of due rows of the queues, locked, oldest first: the relay's claim of several queues. */
    static final String DUE = """
            SELECT due.id FROM unnest(?::varchar[]) AS q(name)
            CROSS JOIN LATERAL (SELECT id, available_at FROM onebeat_task
                                WHERE status = 'pending' AND queue = q.name AND available_at <= now()
                                ORDER BY available_at LIMIT ? FOR UPDATE SKIP LOCKED) due
            ORDER BY due.available_at LIMIT ?""";

    /** Locks a batch of due rows and reads them. */
    static final String CLAIM = "SELECT " + COLUMNS + " FROM onebeat_task WHERE id = ANY(ARRAY(" + DUE + "))";

    /** Published rows marked, as the relay marks them by default. */
    static final String MARK = """
            UPDATE onebeat_task t SET status = 'published', published_at = now(), attempts = t.attempts + 1,
                   last_error = NULL
            WHERE t.id = ANY(?::bigint[])
            """;

    /** Published rows deleted instead of marked, as the relay's {@code on-publish=delete} ends them. */
    static final String DELETE = "DELETE FROM onebeat_task WHERE id = ANY(?::bigint[])";

    private RawClaimLoop() {
    }

    /**
     * Drains the queue's due rows with {@code loops} threads, each on a connection of its own, ending each locked batch
     * with {@code settle}: {@link #MARK}, or {@link #DELETE} as the relay's {@code on-publish=delete} does.
     *
     * @return rows marked or deleted, summed over the threads
     */
    static int drain(DataSource pool, String queue, int loops, int batchSize, String settle) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(loops);
        try {
            List<Future<Integer>> drained = new ArrayList<>();
            for (int i = 0; i < loops; i++) {
                drained.add(threads.submit(() -> {
                    int rows = 0;
                    try (Connection connection = pool.getConnection()) {
                        Array queues = connection.createArrayOf("varchar", new Object[] {queue});
                        for (int round = round(connection, queues, batchSize, settle); round > 0;
                             round = round(connection, queues, batchSize, settle)) {
                            rows += round;
                        }
                    }
                    return rows;
                }));
            }
            int rows = 0;
            for (Future<Integer> future : drained) {
                rows += future.get();
            }
            return rows;
        } finally {
            threads.shutdownNow();
        }
    }

    /** One locked batch, {@code settle} (the mark, or {@link #DELETE}) run on its ids, committed. @return its rows */
    static int round(Connection connection, Array queues, int batchSize, String settle) throws SQLException {
        connection.setAutoCommit(false);
        List<Long> ids = new ArrayList<>(batchSize);
        try {
            try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
                claim.setArray(1, queues);
                claim.setInt(2, batchSize);
                claim.setInt(3, batchSize);
                try (ResultSet rows = claim.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getLong(1));
                        for (int column = 2; column <= 10; column++) {
                            rows.getObject(column);
                        }
                    }
                }
            }
            if (!ids.isEmpty()) {
                try (PreparedStatement mark = connection.prepareStatement(settle)) {
                    mark.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
                    mark.executeUpdate();
                }
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
        return ids.size();
    }
}
