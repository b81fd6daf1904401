package dev.onebeat.scheduler.relay;

import dev.onebeat.transport.Transport;
import dev.onebeat.transport.Delivery;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.OutboundTask;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relays the queues of one broker: claims due rows with {@code FOR UPDATE SKIP LOCKED}, publishes
 * them, and marks each published only after its transport reported the broker's confirm. Runs on
 * its own thread; every replica runs one per broker and the claims keep them apart.
 *
 * <p>Row states: {@code pending} → {@code claimed} (locked_by this node, locked_until now + lease,
 * attempts + 1) → {@code published}, or back to {@code pending} with a later {@code available_at}
 * when the publish failed for a passing reason, or {@code failed} when the broker refused it. Marks
 * are fenced on {@code (locked_by, attempts)}: a relay whose claim expired and was taken over marks
 * nothing. A claim left by a dead relay is taken again after its lease and published again, under
 * the same key.
 */
final class RelayLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(RelayLoop.class);

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

    private final String broker;
    private final List<String> queues;
    private final RelayTransports transports;
    private final DataSource dataSource;
    private final String node;
    private final RelaySettings settings;
    private final RelayMetrics metrics;
    private final RelayHook hook;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private boolean woken;
    private volatile boolean running = true;
    private int consecutiveFailures;
    private volatile Instant failingSince;
    private volatile Instant lastPublished;
    private volatile String lastError;

    RelayLoop(String broker, List<String> queues, RelayTransports transports, DataSource dataSource, String node,
              RelaySettings settings, RelayMetrics metrics, RelayHook hook) {
        this.broker = broker;
        this.queues = List.copyOf(queues);
        this.transports = transports;
        this.dataSource = dataSource;
        this.node = node;
        this.settings = settings;
        this.metrics = metrics;
        this.hook = hook;
    }

    @Override
    public void run() {
        log.info("relay started broker={} queues={} node={}", broker, queues, node);
        while (running) {
            try {
                Round round = relayOnce();
                if (round.failedWhole()) {
                    failing(round.error());
                    await(backoffCeiling(consecutiveFailures), false);
                } else {
                    if (round.published() > 0) {
                        recovered();
                    }
                    if (round.claimed() < settings.batchSize()) {
                        await(settings.pollInterval(), true);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException | SQLException e) {
                // the database is unreachable or a statement failed: claimed rows come back after their lease
                failing(e.toString());
                log.warn("relay round failed broker={} (retrying): {}", broker, e.toString());
                try {
                    await(backoffCeiling(consecutiveFailures), false);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        log.info("relay stopped broker={} node={}", broker, node);
    }

    private void failing(String error) {
        consecutiveFailures++;
        if (failingSince == null) {
            failingSince = Instant.now();
        }
        lastError = error;
    }

    private void recovered() {
        if (consecutiveFailures > 0) {
            log.info("relay publishing again broker={} after {} failed round(s) since {}", broker, consecutiveFailures,
                    failingSince);
        }
        consecutiveFailures = 0;
        failingSince = null;
        lastPublished = Instant.now();
    }

    /**
     * What this loop last did, for health.
     *
     * @param broker the broker it serves
     * @param queues its queues
     * @param lastPublished when a round last published something, or {@code null}
     * @param failingSince since when every round has failed, or {@code null} when the last did not
     * @param lastError the last failure, kept after recovery
     */
    record State(String broker, List<String> queues, Instant lastPublished, Instant failingSince, String lastError) {
    }

    /** @return this loop's state now */
    State state() {
        return new State(broker, queues, lastPublished, failingSince, lastError);
    }

    /** Wakes the loop if it waits for work; called after a fire commits. */
    void wake() {
        lock.lock();
        try {
            woken = true;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Makes {@link #run} return after its current round. */
    void stop() {
        running = false;
        wake();
    }

    private void await(Duration timeout, boolean wakeable) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            if (!wakeable) {
                woken = false;
            }
            while (running && !(wakeable && woken) && nanos > 0) {
                nanos = wake.awaitNanos(nanos);
            }
            woken = false;
        } finally {
            lock.unlock();
        }
    }

    /** One round: rows claimed and published, whether a passing failure stopped all of them, and the first error. */
    record Round(int claimed, int published, boolean failedWhole, String error) {
    }

    /**
     * Claims up to a batch, publishes it and marks it. Package-private for tests and benchmarks.
     *
     * @return what the round did
     */
    Round relayOnce() throws SQLException, InterruptedException {
        List<ClaimedTask> claimed = claim();
        if (claimed.isEmpty()) {
            return new Round(0, 0, false, null);
        }
        Map<String, List<ClaimedTask>> byQueue = new LinkedHashMap<>();
        for (ClaimedTask task : claimed) {
            byQueue.computeIfAbsent(task.task().queue(), q -> new ArrayList<>()).add(task);
        }
        List<ClaimedTask> published = new ArrayList<>();
        List<ClaimedTask> retry = new ArrayList<>();
        List<String> retryErrors = new ArrayList<>();
        List<ClaimedTask> failed = new ArrayList<>();
        List<String> failedErrors = new ArrayList<>();
        boolean anyPublished = false;
        for (Map.Entry<String, List<ClaimedTask>> entry : byQueue.entrySet()) {
            String queue = entry.getKey();
            List<ClaimedTask> tasks = entry.getValue();
            QueueRoute route = transports.route(queue);
            long started = System.nanoTime();
            List<Delivery> outcomes = publish(route, tasks);
            warnIfPastLease(route, tasks.size(), Duration.ofNanos(System.nanoTime() - started));
            for (int i = 0; i < tasks.size(); i++) {
                ClaimedTask task = tasks.get(i);
                Delivery outcome = outcomes.get(i);
                switch (outcome.status()) {
                    case PUBLISHED -> {
                        published.add(task);
                        anyPublished = true;
                    }
                    case RETRY -> {
                        retry.add(task);
                        retryErrors.add(outcome.error());
                    }
                    case REFUSED -> {
                        failed.add(task);
                        failedErrors.add(outcome.error());
                    }
                }
            }
        }
        hook.afterPublish(published.size());
        int marked = mark(published, retry, retryErrors, failed, failedErrors);
        if (marked < published.size()) {
            log.warn("relay lost {} claims before marking them published broker={} node={}; "
                    + "they were published and may be published again under the same key",
                    published.size() - marked, broker, node);
        }
        record(published, retry, retryErrors, failed, failedErrors);
        return new Round(claimed.size(), published.size(), !anyPublished && failed.isEmpty() && !retry.isEmpty(),
                retryErrors.isEmpty() ? null : retryErrors.get(0));
    }

    /**
     * A publish that outlasts the claim lease lets another relay take the same rows and publish them
     * again (same keys, so harmless to deduplicating consumers, but avoidable): say how to avoid it.
     */
    private void warnIfPastLease(QueueRoute route, int tasks, Duration took) {
        if (took.compareTo(settings.claimLease()) > 0) {
            log.warn("relay: publishing {} task(s) to {} took {} ms, longer than the claim lease ({} ms); another "
                    + "relay may have published them again. Lower onebeat.relay.batch-size or raise "
                    + "onebeat.relay.claim-lease", tasks, route.describe(), took.toMillis(), settings.claimLease().toMillis());
        }
    }

    private List<Delivery> publish(QueueRoute route, List<ClaimedTask> tasks) {
        List<OutboundTask> outbound = new ArrayList<>(tasks.size());
        for (ClaimedTask task : tasks) {
            outbound.add(task.task());
        }
        try {
            Transport transport = transports.transport(route);
            List<Delivery> outcomes = transport.publish(outbound);
            if (outcomes == null || outcomes.size() != tasks.size()) {
                throw new IllegalStateException("transport " + route.transport() + " returned "
                        + (outcomes == null ? "null" : outcomes.size() + " outcomes") + " for " + tasks.size() + " tasks");
            }
            return outcomes;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String error = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (consecutiveFailures == 0) {
                log.warn("relay could not publish {} task(s) to {}, retrying with backoff: {}", tasks.size(),
                        route.describe(), error);
            } else {
                log.debug("relay still cannot publish to {}: {}", route.describe(), error);
            }
            transports.discard(route);
            List<Delivery> retry = new ArrayList<>(tasks.size());
            Delivery outcome = Delivery.retry(error);
            for (int i = 0; i < tasks.size(); i++) {
                retry.add(outcome);
            }
            return retry;
        }
    }

    private List<ClaimedTask> claim() throws SQLException {
        try (Connection con = dataSource.getConnection()) {
            con.setAutoCommit(true);
            Array queueArray = con.createArrayOf("varchar", queues.toArray());
            List<ClaimedTask> claimed = new ArrayList<>();
            claim(con, CLAIM_EXPIRED, 1, queueArray, settings.batchSize(), true, claimed);
            if (claimed.size() < settings.batchSize()) {
                claim(con, CLAIM_DUE, 2, queueArray, settings.batchSize() - claimed.size(), false, claimed);
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
            ps.setLong(2, settings.claimLease().toMillis());
            ps.setArray(3, queueArray);
            for (int i = 0; i < limits; i++) {
                ps.setInt(4 + i, limit);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String entityType = rs.getString(8);
                    OutboundTask task = new OutboundTask(new IdempotencyKey(rs.getString(3)), rs.getString(4),
                            rs.getTimestamp(5).toInstant(), rs.getString(6), rs.getString(7), entityType,
                            rs.getString(9), rs.getString(10), null);
                    into.add(new ClaimedTask(rs.getLong(1), rs.getInt(2), reclaimed, task));
                }
            }
        }
    }

    private int mark(List<ClaimedTask> published, List<ClaimedTask> retry, List<String> retryErrors,
                     List<ClaimedTask> failed, List<String> failedErrors) throws SQLException {
        try (Connection con = dataSource.getConnection()) {
            con.setAutoCommit(false);
            try {
                try (Statement statement = con.createStatement()) {
                    // The driver's server-prepared marks get a generic plan after five calls, which guesses the
                    // unnest at 10 rows and rescans it for every claimed row: 80-90 ms for a batch of 500 here.
                    // Planned for their arrays, they hash-join them (about 1 ms). LOCAL: ends with this transaction.
                    statement.execute("SET LOCAL plan_cache_mode = force_custom_plan");
                }
                int marked = 0;
                if (!published.isEmpty()) {
                    try (PreparedStatement ps = con.prepareStatement(MARK_PUBLISHED)) {
                        ps.setArray(1, con.createArrayOf("bigint", ids(published)));
                        ps.setArray(2, con.createArrayOf("integer", attempts(published)));
                        ps.setString(3, node);
                        marked = ps.executeUpdate();
                    }
                }
                if (!retry.isEmpty()) {
                    Long[] delays = new Long[retry.size()];
                    for (int i = 0; i < delays.length; i++) {
                        delays[i] = retryDelay(retry.get(i).attempts()).toMillis();
                    }
                    try (PreparedStatement ps = con.prepareStatement(MARK_RETRY)) {
                        ps.setArray(1, con.createArrayOf("bigint", ids(retry)));
                        ps.setArray(2, con.createArrayOf("integer", attempts(retry)));
                        ps.setArray(3, con.createArrayOf("bigint", delays));
                        ps.setArray(4, con.createArrayOf("text", truncate(retryErrors)));
                        ps.setString(5, node);
                        ps.executeUpdate();
                    }
                }
                if (!failed.isEmpty()) {
                    try (PreparedStatement ps = con.prepareStatement(MARK_FAILED)) {
                        ps.setArray(1, con.createArrayOf("bigint", ids(failed)));
                        ps.setArray(2, con.createArrayOf("integer", attempts(failed)));
                        ps.setArray(3, con.createArrayOf("text", truncate(failedErrors)));
                        ps.setString(4, node);
                        ps.executeUpdate();
                    }
                }
                con.commit();
                return marked;
            } catch (SQLException | RuntimeException e) {
                con.rollback();
                throw e;
            }
        }
    }

    private void record(List<ClaimedTask> published, List<ClaimedTask> retry, List<String> retryErrors,
                        List<ClaimedTask> failed, List<String> failedErrors) {
        int republished = 0;
        String firstRepublished = null;
        for (ClaimedTask task : published) {
            QueueRoute route = transports.route(task.task().queue());
            metrics.published(route, task.reclaimed());
            if (task.reclaimed()) {
                republished++;
                firstRepublished = firstRepublished == null ? task.task().key().value() : firstRepublished;
            }
        }
        if (republished > 0) {
            log.info("relay republished {} task(s) after an expired claim broker={} (first key={}); "
                    + "same ids and keys as before", republished, broker, firstRepublished);
        }
        for (ClaimedTask task : retry) {
            metrics.retried(transports.route(task.task().queue()));
        }
        for (int i = 0; i < failed.size(); i++) {
            ClaimedTask task = failed.get(i);
            QueueRoute route = transports.route(task.task().queue());
            metrics.failed(route);
            log.error("relay: broker refused task key={} {}; marked failed: {}", task.task().key().value(),
                    route.describe(), failedErrors.get(i));
        }
        if (!published.isEmpty()) {
            log.debug("relay published {} task(s) broker={}", published.size(), broker);
        }
        if (!retry.isEmpty() && log.isDebugEnabled()) {
            log.debug("relay will retry {} task(s) broker={}: {}", retry.size(), broker, retryErrors.get(0));
        }
    }

    /** The longest wait after {@code attempt} consecutive failures: doubling from retryInitial up to retryMax. */
    Duration backoffCeiling(int attempt) {
        long initial = settings.retryInitial().toMillis();
        long max = settings.retryMax().toMillis();
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        return Duration.ofMillis(Math.min(max, initial << doublings));
    }

    /** Half the ceiling plus a random half: spread out, but never a hot retry. */
    private Duration retryDelay(int attempt) {
        long ceiling = Math.max(2, backoffCeiling(attempt).toMillis());
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
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

    private static String[] truncate(List<String> errors) {
        String[] out = new String[errors.size()];
        for (int i = 0; i < out.length; i++) {
            String error = errors.get(i);
            out[i] = error.length() > 2000 ? error.substring(0, 2000) + "…" : error;
        }
        return out;
    }

    /** @return the broker this loop serves */
    String broker() {
        return broker;
    }
}
