package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.boot.database.HeldTransactions;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * Every statement the relay runs on {@code onebeat_task}, for one node. A round's claim is a transaction of its own
 * ({@link RelayClaim}): the due rows are locked by {@code SELECT … FOR UPDATE SKIP LOCKED}, published while the
 * transaction stays open, and marked by one {@code UPDATE} per outcome before it commits, so each row is written once
 * per publish (with {@code onebeat.relay.on-publish=delete}, each published row is deleted instead). Other relays skip
 * the locked rows; the rows stay {@code pending} until their mark commits.
 *
 * <p>The claim lease is the transaction's {@code idle_in_transaction_session_timeout}: a relay that stalls (or loses
 * its network) longer than the lease between two statements has its session ended by the server, which frees the rows
 * for another relay; its marks then fail and change nothing. A publish slower than the lease keeps its rows by a
 * short statement every third of the lease ({@link ClaimRenewal}). A relay that dies frees them at once, with its
 * connection. Rows an earlier release left {@code claimed} under a lease are taken over once it has run out, so the
 * two can run side by side during an upgrade. The table's other statements are the outbox's ({@code OutboxWriter},
 * {@code TaskTable}).
 *
 * <p>Measured before it replaced the lease claim (an {@code UPDATE} to {@code claimed}, then the mark): 1.7–1.8 times
 * the rows per second of database work ({@code bench/relay-claims.sh}, BENCHMARKS.md).
 */
final class RelayRepository {

    /** The payload of a claimed row whose own could not be read; the row is refused, never sent. */
    private static final TaskPayload NO_ARGUMENTS = TaskPayload.of("[]", "{}");

    // attempts + 1: the number of the attempt this claim makes, which its mark writes
    private static final String COLUMNS = """
            id, attempts + 1, idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id, payload::text
            """;

    // The lease is the transaction's idle timeout (over the pool's default for every session). Custom plans for the
    // claim's statements: the marks' unnest of a batch planned generically is guessed at 10 rows and rescanned for
    // every claimed row (80-90 ms for 500 rows against about 1 ms). Both LOCAL: they end with the claim's transaction.
    private static final String BEGIN = """
            SELECT set_config('idle_in_transaction_session_timeout', ?, true),
                   set_config('plan_cache_mode', 'force_custom_plan', true)""";

    // Rows an earlier release claimed under a lease that ran out (its relay died or stalled): taken first, the oldest.
    private static final String CLAIM_EXPIRED = "SELECT " + COLUMNS + """
            FROM onebeat_task
            WHERE status = 'claimed' AND locked_until < now() AND queue = ANY(?)
            ORDER BY locked_until LIMIT ? FOR UPDATE SKIP LOCKED""";

    // Oldest due rows of one queue, read from the due index (queue, available_at) in order; only the rows returned are
    // locked (the lock is taken under the LIMIT), and a row another relay holds is passed over.
    private static final String CLAIM_DUE_ONE = "SELECT " + COLUMNS + """
            FROM onebeat_task WHERE status = 'pending' AND queue = (?::varchar[])[1] AND available_at <= now()
            ORDER BY available_at LIMIT ? FOR UPDATE SKIP LOCKED""";

    // Oldest due rows of several queues. Each queue's rows come from the due index already in order, so a claim reads
    // a batch per queue, not the backlog (ORDER BY over queue = ANY(...) sorted every pending row on every claim); rows
    // due at the same instant come in index order, and the batch is sorted by id afterwards. A queue's rows beyond the
    // batch stay locked, unpublished, until the round commits (another loop passes over them meanwhile); the next round
    // takes them. Locking only the rows kept would need the lock above the merge, where rows another loop holds would
    // empty the batch instead of being passed over.
    private static final String CLAIM_DUE = "SELECT " + COLUMNS + """
            FROM onebeat_task WHERE id = ANY(ARRAY(
                SELECT due.id FROM unnest(?::varchar[]) AS q(name)
                CROSS JOIN LATERAL (SELECT id, available_at FROM onebeat_task
                                    WHERE status = 'pending' AND queue = q.name AND available_at <= now()
                                    ORDER BY available_at LIMIT ? FOR UPDATE SKIP LOCKED) due
                ORDER BY due.available_at LIMIT ?))""";

    // The marks need no fence: the rows are locked by the claim's own transaction since they were read.
    private static final String MARK_PUBLISHED = """
            UPDATE onebeat_task SET status = 'published', published_at = now(), attempts = attempts + 1,
                   locked_by = NULL, locked_until = NULL, last_error = NULL
            WHERE id = ANY(?::bigint[])
            """;

    // onebeat.relay.on-publish=delete: the row goes with the claim's commit, which writes no new row version and no
    // index entry (a mark writes both): 2.4 times the rows per second of database work (bench/relay-claims.sh)
    private static final String DELETE_PUBLISHED = "DELETE FROM onebeat_task WHERE id = ANY(?::bigint[])";

    private static final String MARK_RETRY = """
            UPDATE onebeat_task t SET status = 'pending', attempts = t.attempts + 1, locked_by = NULL,
                   locked_until = NULL, available_at = now() + m.delay_ms * interval '1 millisecond', last_error = m.error
            FROM unnest(?::bigint[], ?::bigint[], ?::text[]) AS m(id, delay_ms, error)
            WHERE t.id = m.id
            """;

    private static final String MARK_FAILED = """
            UPDATE onebeat_task t SET status = 'failed', attempts = t.attempts + 1, locked_by = NULL,
                   locked_until = NULL, last_error = m.error
            FROM unnest(?::bigint[], ?::text[]) AS m(id, error)
            WHERE t.id = m.id
            """;

    private final DataSource dataSource;
    private final String leaseMillis;
    private final boolean deletePublished;

    /**
     * @param claimLease how long a claim's transaction may stay idle before the server ends it
     * @param deletePublished whether a published row is deleted ({@code onebeat.relay.on-publish=delete}) instead of
     *     marked
     */
    RelayRepository(DataSource dataSource, Duration claimLease, boolean deletePublished) {
        this.dataSource = dataSource;
        this.leaseMillis = Long.toString(Math.min(Integer.MAX_VALUE, Math.max(1, claimLease.toMillis())));
        this.deletePublished = deletePublished;
    }

    /**
     * Claims up to {@code batchSize} rows of the queues, expired claims of an earlier release first, then the oldest
     * due rows, in a transaction that stays open until the claim is marked or closed.
     *
     * @return the claim, holding the rows by id; the caller closes it
     */
    RelayClaim claim(List<String> queues, int batchSize) throws SQLException {
        Connection con = dataSource.getConnection();
        try {
            con.setAutoCommit(false);
            try (PreparedStatement begin = con.prepareStatement(BEGIN)) {
                begin.setString(1, leaseMillis);
                begin.execute();
            }
            Array queueArray = con.createArrayOf("varchar", queues.toArray());
            List<ClaimedTask> claimed = new ArrayList<>();
            claim(con, CLAIM_EXPIRED, 1, queueArray, batchSize, true, claimed);
            if (claimed.size() < batchSize) {
                claim(con, queues.size() == 1 ? CLAIM_DUE_ONE : CLAIM_DUE, queues.size() == 1 ? 1 : 2, queueArray,
                        batchSize - claimed.size(), false, claimed);
            }
            claimed.sort((a, b) -> Long.compare(a.id(), b.id()));
            return new RelayClaim(con, claimed, deletePublished);
        } catch (SQLException | RuntimeException | Error e) {
            HeldTransactions.abandon(con);
            throw e;
        }
    }

    /** @param limits how many parameters after the queues take {@code limit}: they end the statement */
    private static void claim(Connection con, String sql, int limits, Array queueArray, int limit, boolean reclaimed,
                              List<ClaimedTask> into) throws SQLException {
        try (PreparedStatement ps = con.prepareStatement(sql)) {
            ps.setArray(1, queueArray);
            for (int i = 0; i < limits; i++) {
                ps.setInt(2 + i, limit);
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
     * Marks each row as its outcome says, on the claim's connection; the caller commits.
     *
     * @param retryDelay how long a row to retry waits, by its attempt count
     * @param deletePublished whether the published rows are deleted instead of marked
     * @return rows marked published (or deleted)
     */
    static int mark(Connection con, List<TaskOutcome> outcomes, IntFunction<Duration> retryDelay,
                    boolean deletePublished) throws SQLException {
        List<TaskOutcome> published = only(outcomes, Delivery.Status.PUBLISHED);
        List<TaskOutcome> retry = only(outcomes, Delivery.Status.RETRY);
        List<TaskOutcome> failed = only(outcomes, Delivery.Status.REFUSED);
        int marked = 0;
        if (!published.isEmpty()) {
            try (PreparedStatement ps = con.prepareStatement(deletePublished ? DELETE_PUBLISHED : MARK_PUBLISHED)) {
                ps.setArray(1, con.createArrayOf("bigint", ids(tasks(published))));
                marked = ps.executeUpdate();
            }
        }
        if (!retry.isEmpty()) {
            Long[] delays = new Long[retry.size()];
            for (int i = 0; i < delays.length; i++) {
                delays[i] = retryDelay.apply(retry.get(i).task().attempts()).toMillis();
            }
            try (PreparedStatement ps = con.prepareStatement(MARK_RETRY)) {
                ps.setArray(1, con.createArrayOf("bigint", ids(tasks(retry))));
                ps.setArray(2, con.createArrayOf("bigint", delays));
                ps.setArray(3, con.createArrayOf("text", errors(retry)));
                ps.executeUpdate();
            }
        }
        if (!failed.isEmpty()) {
            try (PreparedStatement ps = con.prepareStatement(MARK_FAILED)) {
                ps.setArray(1, con.createArrayOf("bigint", ids(tasks(failed))));
                ps.setArray(2, con.createArrayOf("text", errors(failed)));
                ps.executeUpdate();
            }
        }
        return marked;
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

    private static String[] errors(List<TaskOutcome> outcomes) {
        String[] out = new String[outcomes.size()];
        for (int i = 0; i < out.length; i++) {
            // a NUL, which a text column refuses, would fail the marks of the whole batch in every round
            String error = outcomes.get(i).delivery().error().replace('\0', ' ');
            out[i] = error.length() > 2000 ? error.substring(0, 2000) + "…" : error;
        }
        return out;
    }
}
