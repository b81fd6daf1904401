package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * Every statement the relay runs on {@code onebeat_task}, for one node: the claims, the lease
 * renewal and the fenced marks. Claims and renewals set {@code locked_until} by the database's clock,
 * so replicas with skewed clocks agree on when a claim has expired.
 *
 * <p>Row states: {@code pending} → {@code claimed} (locked_by this node, locked_until now + lease,
 * attempts + 1) → {@code published}, or back to {@code pending} with a later {@code available_at}
 * when the publish failed for a passing reason, or {@code failed} when the broker refused it. Marks
 * and renewals are fenced on {@code (locked_by, attempts)}: a relay whose claim expired and was taken
 * over changes nothing. A claim left by a dead relay is taken again after its lease. The table's other statements are
 * the outbox's ({@code OutboxWriter}, {@code TaskTable}).
 */
final class RelayRepository {

    /** The payload of a claimed row whose own could not be read; the row is refused, never sent. */
    private static final TaskPayload NO_ARGUMENTS = TaskPayload.of("[]", "{}");

    private static final String COLUMNS = """
            id, attempts, idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id, payload::text
            """;

    // Claims left by a relay that died or stalled: their lease ran out. Taken first, they are the oldest.
    private static final String CLAIM_EXPIRED = """
            UPDATE onebeat_task t SET locked_by = ?, locked_until = now() + ? * interval '1 millisecond',
                   attempts = t.attempts + 1
            WHERE t.id IN (SELECT id FROM onebeat_task
                           WHERE status = 'claimed' AND locked_until < now() AND queue = ANY(?)
                           ORDER BY locked_until LIMIT ? FOR UPDATE SKIP LOCKED)
            RETURNING\s""" + COLUMNS;

    // Oldest due rows first. Each queue's rows come from the due index (queue, available_at) already in
    // order, so a claim reads a batch, not the backlog (ORDER BY over queue = ANY(...) or with an id
    // tie-break sorted every pending row on every claim); rows due at the same instant come in index
    // order, and the batch is sorted by id afterwards. id = ANY(ARRAY(...)) updates through the primary key.
    private static final String CLAIM_DUE = """
            UPDATE onebeat_task t SET status = 'claimed', locked_by = ?,
                   locked_until = now() + ? * interval '1 millisecond', attempts = t.attempts + 1
            WHERE t.id = ANY(ARRAY(
                SELECT due.id FROM unnest(?::varchar[]) AS q(name)
                CROSS JOIN LATERAL (SELECT id, available_at FROM onebeat_task
                                    WHERE status = 'pending' AND queue = q.name AND available_at <= now()
                                    ORDER BY available_at LIMIT ? FOR UPDATE SKIP LOCKED) due
                ORDER BY due.available_at LIMIT ?))
            RETURNING\s""" + COLUMNS;

    // Keeps a slow publish's claims its own; fenced as the marks are, so a claim another relay took over
    // after it expired, or one already marked, is left as it is.
    private static final String RENEW = """
            UPDATE onebeat_task t SET locked_until = now() + ? * interval '1 millisecond'
            FROM unnest(?::bigint[], ?::int[]) AS m(id, attempts)
            WHERE t.id = m.id AND t.attempts = m.attempts AND t.status = 'claimed' AND t.locked_by = ?
            """;

    private static final String MARK_PUBLISHED = """
            UPDATE onebeat_task t SET status = 'published', published_at = now(), locked_by = NULL,
                   locked_until = NULL, last_error = NULL
            FROM unnest(?::bigint[], ?::int[]) AS m(id, attempts)
            WHERE t.id = m.id AND t.attempts = m.attempts AND t.status = 'claimed' AND t.locked_by = ?
            """;

    private static final String MARK_RETRY = """
            UPDATE onebeat_task t SET status = 'pending', locked_by = NULL, locked_until = NULL,
                   available_at = now() + m.delay_ms * interval '1 millisecond', last_error = m.error
            FROM unnest(?::bigint[], ?::int[], ?::bigint[], ?::text[]) AS m(id, attempts, delay_ms, error)
            WHERE t.id = m.id AND t.attempts = m.attempts AND t.status = 'claimed' AND t.locked_by = ?
            """;

    private static final String MARK_FAILED = """
            UPDATE onebeat_task t SET status = 'failed', locked_by = NULL, locked_until = NULL, last_error = m.error
            FROM unnest(?::bigint[], ?::int[], ?::text[]) AS m(id, attempts, error)
            WHERE t.id = m.id AND t.attempts = m.attempts AND t.status = 'claimed' AND t.locked_by = ?
            """;

    // After the database server changed (a failover): this node's claims the new server still holds may be claims
    // whose publish already happened on the old server, whose marks were lost with it. This node is alive, so no
    // lease would ever run out early; expiring them now lets the next round publish them again (same keys).
    private static final String EXPIRE_OWN_CLAIMS = """
            UPDATE onebeat_task SET locked_until = now()
            WHERE status = 'claimed' AND locked_by = ? AND locked_until > now()
            """;

    private final DataSource dataSource;
    private final String node;
    private final long leaseMillis;

    /**
     * @param node this replica's {@code locked_by}
     * @param claimLease how long a claim or a renewal holds
     */
    RelayRepository(DataSource dataSource, String node, Duration claimLease) {
        this.dataSource = dataSource;
        this.node = node;
        this.leaseMillis = claimLease.toMillis();
    }

    /**
     * Ends this node's claims now, so that the next claim round (of any relay) takes them again, fenced as an
     * expired claim is: a publish of them still under way here can no longer mark them.
     *
     * @return how many claims were ended
     */
    int expireOwnClaims() throws SQLException {
        try (Connection con = dataSource.getConnection(); PreparedStatement st = con.prepareStatement(EXPIRE_OWN_CLAIMS)) {
            st.setString(1, node);
            return st.executeUpdate();
        }
    }

    /**
     * Claims up to {@code batchSize} rows of the queues: expired claims first, then the oldest due rows.
     *
     * @return the claimed rows, by id
     */
    List<ClaimedTask> claim(List<String> queues, int batchSize) throws SQLException {
        try (Connection con = dataSource.getConnection()) {
            con.setAutoCommit(true);
            Array queueArray = con.createArrayOf("varchar", queues.toArray());
            List<ClaimedTask> claimed = new ArrayList<>();
            claim(con, CLAIM_EXPIRED, 1, queueArray, batchSize, true, claimed);
            if (claimed.size() < batchSize) {
                claim(con, CLAIM_DUE, 2, queueArray, batchSize - claimed.size(), false, claimed);
            }
            claimed.sort((a, b) -> Long.compare(a.id(), b.id()));
            return claimed;
        }
    }

    /** @param limits how many parameters after the queues take {@code limit}: they end the statement */
    private void claim(Connection con, String sql, int limits, Array queueArray, int limit, boolean reclaimed,
                       List<ClaimedTask> into) throws SQLException {
        try (PreparedStatement ps = con.prepareStatement(sql)) {
            ps.setString(1, node);
            ps.setLong(2, leaseMillis);
            ps.setArray(3, queueArray);
            for (int i = 0; i < limits; i++) {
                ps.setInt(4 + i, limit);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = rs.getString(3);
                    TaskPayload payload = NO_ARGUMENTS;
                    String unreadable = null;
                    try {
                        // read once here: every transport gets the fields typed
                        payload = TaskPayload.fromJson(rs.getString(10));
                    } catch (IllegalArgumentException e) {
                        unreadable = "payload of task " + key + ": " + e.getMessage();
                    }
                    OutboundTask task = new OutboundTask(new IdempotencyKey(key), rs.getString(4),
                            rs.getTimestamp(5).toInstant(), rs.getString(6), rs.getString(7), rs.getString(8),
                            rs.getString(9), payload, null);
                    into.add(new ClaimedTask(rs.getLong(1), rs.getInt(2), reclaimed, task, unreadable));
                }
            }
        }
    }

    /**
     * Moves the claims' {@code locked_until} a lease on from now.
     *
     * @return how many were still this node's claims
     */
    int renew(List<ClaimedTask> held) throws SQLException {
        return inTransaction(con -> {
            try (PreparedStatement ps = con.prepareStatement(RENEW)) {
                ps.setLong(1, leaseMillis);
                ps.setArray(2, con.createArrayOf("bigint", ids(held)));
                ps.setArray(3, con.createArrayOf("integer", attempts(held)));
                ps.setString(4, node);
                return ps.executeUpdate();
            }
        });
    }

    /**
     * Marks each row as its outcome says, in one transaction.
     *
     * @param retryDelay how long a row to retry waits, by its attempt count
     * @return rows marked published: fewer than were published when claims were taken over meanwhile
     */
    int mark(List<TaskOutcome> outcomes, IntFunction<Duration> retryDelay) throws SQLException {
        List<TaskOutcome> published = only(outcomes, Delivery.Status.PUBLISHED);
        List<TaskOutcome> retry = only(outcomes, Delivery.Status.RETRY);
        List<TaskOutcome> failed = only(outcomes, Delivery.Status.REFUSED);
        return inTransaction(con -> {
            int marked = 0;
            if (!published.isEmpty()) {
                try (PreparedStatement ps = con.prepareStatement(MARK_PUBLISHED)) {
                    List<ClaimedTask> rows = tasks(published);
                    ps.setArray(1, con.createArrayOf("bigint", ids(rows)));
                    ps.setArray(2, con.createArrayOf("integer", attempts(rows)));
                    ps.setString(3, node);
                    marked = ps.executeUpdate();
                }
            }
            if (!retry.isEmpty()) {
                Long[] delays = new Long[retry.size()];
                for (int i = 0; i < delays.length; i++) {
                    delays[i] = retryDelay.apply(retry.get(i).task().attempts()).toMillis();
                }
                try (PreparedStatement ps = con.prepareStatement(MARK_RETRY)) {
                    List<ClaimedTask> rows = tasks(retry);
                    ps.setArray(1, con.createArrayOf("bigint", ids(rows)));
                    ps.setArray(2, con.createArrayOf("integer", attempts(rows)));
                    ps.setArray(3, con.createArrayOf("bigint", delays));
                    ps.setArray(4, con.createArrayOf("text", errors(retry)));
                    ps.setString(5, node);
                    ps.executeUpdate();
                }
            }
            if (!failed.isEmpty()) {
                try (PreparedStatement ps = con.prepareStatement(MARK_FAILED)) {
                    List<ClaimedTask> rows = tasks(failed);
                    ps.setArray(1, con.createArrayOf("bigint", ids(rows)));
                    ps.setArray(2, con.createArrayOf("integer", attempts(rows)));
                    ps.setArray(3, con.createArrayOf("text", errors(failed)));
                    ps.setString(4, node);
                    ps.executeUpdate();
                }
            }
            return marked;
        });
    }

    @FunctionalInterface
    private interface Work {
        int run(Connection con) throws SQLException;
    }

    private int inTransaction(Work work) throws SQLException {
        try (Connection con = dataSource.getConnection()) {
            con.setAutoCommit(false);
            try {
                try (Statement statement = con.createStatement()) {
                    // The driver's server-prepared updates get a generic plan after five calls, which guesses the
                    // unnest at 10 rows and rescans it for every claimed row: 80-90 ms for a batch of 500 here.
                    // Planned for their arrays, they hash-join them (about 1 ms). LOCAL: ends with this transaction.
                    statement.execute("SET LOCAL plan_cache_mode = force_custom_plan");
                }
                int count = work.run(con);
                con.commit();
                return count;
            } catch (SQLException | RuntimeException e) {
                con.rollback();
                throw e;
            }
        }
    }

    private static List<TaskOutcome> only(List<TaskOutcome> outcomes, Delivery.Status status) {
        List<TaskOutcome> selected = new ArrayList<>();
        for (TaskOutcome outcome : outcomes) {
            if (outcome.is(status)) {
                selected.add(outcome);
            }
        }
        return selected;
    }

    private static List<ClaimedTask> tasks(List<TaskOutcome> outcomes) {
        List<ClaimedTask> tasks = new ArrayList<>(outcomes.size());
        outcomes.forEach(outcome -> tasks.add(outcome.task()));
        return tasks;
    }

    private static Long[] ids(List<ClaimedTask> tasks) {
        Long[] ids = new Long[tasks.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = tasks.get(i).id();
        }
        return ids;
    }

    private static Integer[] attempts(List<ClaimedTask> tasks) {
        Integer[] attempts = new Integer[tasks.size()];
        for (int i = 0; i < attempts.length; i++) {
            attempts[i] = tasks.get(i).attempts();
        }
        return attempts;
    }

    private static String[] errors(List<TaskOutcome> outcomes) {
        String[] out = new String[outcomes.size()];
        for (int i = 0; i < out.length; i++) {
            String error = outcomes.get(i).delivery().error();
            out[i] = error.length() > 2000 ? error.substring(0, 2000) + "…" : error;
        }
        return out;
    }
}
