package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The attempts of an instant that did not commit, in {@code onebeat_fire_attempt}, and what follows a
 * failed one: the next attempt armed in the same transaction as the failure's row (so a failure is
 * never recorded without its retry, nor a retry armed for a failure nobody recorded), or, after the
 * last attempt, the instant given up on, logged once at ERROR.
 *
 * <p>Each attempt's failure is recorded once cluster-wide (a unique index, {@code 028-failed-once}): two
 * fires can make one attempt (Quartz recovers a fire whose replica still ran it, a retry trigger fires
 * twice, a backfill numbers its attempt while a retry is armed), and only the one whose record wins arms
 * the next attempt; the other's error is logged, not kept. So an instant has one chain of attempts, and is
 * given up once.
 *
 * <p>A failure is recorded after its fire rolled back, often because the database went away. The
 * write is therefore tried again, with growing pauses, until it succeeds, the instant leaves its catch-up
 * window, or the replica stops: a replica dying meanwhile leaves its Quartz fire to be recovered by
 * another, which fires the instant again.
 */
@Component
public class FireAttempts implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(FireAttempts.class);
    /** The first pause before recording a failure again; it doubles up to {@link #MAX_PAUSE}. */
    private static final Duration FIRST_PAUSE = Duration.ofMillis(200);
    private static final Duration MAX_PAUSE = Duration.ofSeconds(10);
    private static final int MAX_MESSAGE = 2000;
    private static final int SKIPS_PER_STATEMENT = 10_000;
    /** How long writing skipped instants is tried while the database is away. */
    private static final Duration RECORD_SKIPS_FOR = Duration.ofMinutes(10);
    /** What {@link #skippedWhileHeld}'s transaction returns when the fire it met had released the lock (by identity). */
    private static final List<String[]> HOLDER_GONE = Collections.unmodifiableList(new ArrayList<>());

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final RetryScheduler retries;
    private final Clock clock;
    private final MeterRegistry meters;
    private final FireFaults faults;
    private final JobLockTable locks;
    private volatile boolean stopping;

    FireAttempts(JdbcClient jdbc, TransactionTemplate transactions, RetryScheduler retries, Clock clock,
                 MeterRegistry meters, FireFaults faults, JobLockTable locks) {
        this.locks = locks;
        this.meters = meters;
        this.faults = faults;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.retries = retries;
        this.clock = clock;
    }

    /** What became of a failed attempt. */
    public enum AfterFailure {
        /** The next attempt is armed. */
        RETRYING,
        /** That was the last attempt, or the next would start outside the catch-up window. */
        GIVEN_UP,
        /** The failure could not be recorded before the replica stopped or the window closed. */
        NOT_RECORDED,
        /**
         * Another fire of the same attempt (on this replica or another) recorded its failure first, and armed the next
         * attempt or gave the instant up: this one arms nothing.
         */
        RECORDED_BEFORE
    }

    /**
     * Records a failed attempt and arms the next one, or gives the instant up.
     *
     * @param request the fire that failed: its instant, run, attempt (from 1), trigger and node
     */
    public AfterFailure failed(PeriodicJob job, FireRequest request, Throwable error) {
        Instant scheduledAt = request.scheduledAt();
        String run = request.run();
        int attempt = request.attempt();
        FireTrigger trigger = request.trigger();
        String node = request.node();
        Instant failedAt = clock.instant();
        int next = attempt + 1;
        Instant retryAt = null;
        if (next <= job.retry().attempts()) {
            Instant at = failedAt.plus(job.retry().delayBefore(next, ThreadLocalRandom.current().nextDouble()));
            if (!at.isAfter(scheduledAt.plus(job.catchUpWindow()))) {
                retryAt = at;
            }
        }
        Instant armed = retryAt;
        Duration pause = FIRST_PAUSE;
        boolean interrupted = false;
        boolean recorded;
        while (true) {
            try {
                recorded = Boolean.TRUE.equals(transactions.execute(status -> {
                    if (!insertFailed(job.name(), scheduledAt, run, attempt, error, node, trigger, failedAt, armed)) {
                        return false;
                    }
                    if (armed != null) {
                        retries.schedule(job.name(), scheduledAt, run, next, armed, trigger == FireTrigger.BACKFILL);
                    }
                    return true;
                }));
                break;
            } catch (RuntimeException e) {
                if (FireFaults.fromDatabase(e)) {
                    faults.failed(FireFaults.Stage.FIRE, node, e);
                }
                if (stopping || interrupted || clock.instant().isAfter(scheduledAt.plus(job.catchUpWindow()))) {
                    log.error("failed fire not recorded, its instant has no retry job={} scheduledAt={} node={} "
                                    + "attempt={} error={} recordError={}", job.name(), scheduledAt, node, attempt, error,
                            e.toString(), e);
                    return AfterFailure.NOT_RECORDED;
                }
                log.warn("could not record a failed fire, trying again in {} ms job={} scheduledAt={} node={} attempt={} "
                        + "error={}", pause.toMillis(), job.name(), scheduledAt, node, attempt, e.toString());
                // an interrupted thread gives up this failure's record only; the others go on trying
                interrupted = !Pauses.sleep(pause);
                pause = Pauses.doubled(pause, MAX_PAUSE);
            }
        }
        String cause = FireFaults.fromDatabase(error) ? "database" : "job";
        if (!recorded) {
            log.warn("fire failed and rolled back; this attempt's failure was recorded before by another fire of it, "
                            + "which armed the next attempt or gave the instant up job={} scheduledAt={} node={} "
                            + "cause={} attempt={} error={}", job.name(), scheduledAt, node, cause, attempt,
                    error.toString());
            return AfterFailure.RECORDED_BEFORE;
        }
        if (armed != null) {
            log.warn("fire failed and rolled back, retrying job={} scheduledAt={} node={} cause={} attempt={} "
                            + "nextAttempt={} of {} at={} error={}", job.name(), scheduledAt, node, cause, attempt, next,
                    job.retry().attempts(), armed, error.toString());
            return AfterFailure.RETRYING;
        }
        log.error("fire failed for good, no attempt left job={} scheduledAt={} node={} cause={} attempts={} reason={} "
                        + "error={}", job.name(), scheduledAt, node, cause, attempt,
                next > job.retry().attempts() ? "last attempt" : "next attempt outside the catch-up window "
                        + job.catchUpWindow(), error.toString(), error);
        return AfterFailure.GIVEN_UP;
    }

    private static String[] skip(ResultSet rs, int row) throws SQLException {
        return new String[] {rs.getString(1), rs.getString(2)};
    }

    /** Records, in the caller's transaction, that these jobs' fires of the instant were duplicates. */
    void duplicates(List<String> jobs, FireRequest request) {
        if (jobs.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, run_id, attempt, outcome, node,
                                                          trigger_kind, attempted_at)
                        SELECT u.job, ?, ?, ?, 'duplicate', ?, ?, ? FROM unnest(?::varchar[]) AS u(job)
                        """)
                .params(Timestamp.from(request.scheduledAt()), FireRun.column(request.run()), request.attempt(),
                        request.node(), request.trigger().column(), Timestamp.from(clock.instant()),
                        jobs.toArray(String[]::new))
                .update();
    }

    /** Why an instant of a job was not fired; the {@code reason} of its skipped attempt. */
    public enum SkipReason {
        /** An operator's pause. */
        PAUSED("paused"),
        /** Older than the job's catch-up window when a replica could fire it. */
        OUTSIDE_CATCH_UP_WINDOW("outside catch-up window"),
        /** A wall-clock time a daylight-saving gap removed, under {@code gap=skip}. */
        DST_GAP("in a daylight-saving gap (gap=skip)"),
        /** Missed in an outage; {@code FIRE_ONCE_NOW} fired the latest missed instant instead. */
        SUPERSEDED("missed, a later instant fired"),
        /** Missed in an outage; {@code SKIP_MISSED} fires none. */
        MISSED("missed (misfire policy skip-missed)"),
        /** Missed in an outage; {@code FIRE_ALL_MISSED} fired the job's max-catch-up more recent ones. */
        BEYOND_MAX_CATCH_UP("missed, beyond max-catch-up"),
        /**
         * Missed in an outage by a job the replica that settled the outage does not register: it cannot apply the
         * job's misfire policy, and only the fire's own instant is handed back to the cluster.
         */
        NOT_REGISTERED("missed, not registered where caught up"),
        /** Due while the job's previous fire still ran, under overlap policy {@code skip} (or a second waiter). */
        OVERLAP("previous fire still running");

        private final String text;

        SkipReason(String text) {
            this.text = text;
        }

        /** @return as the history shows it */
        public String text() {
            return text;
        }

        /**
         * @return whether the instant went unfired because no replica could fire it in time (an outage), which
         *     the missed-fire detector reports as a miss; the others are a policy's or an operator's choice
         */
        public boolean missed() {
            return this == OUTSIDE_CATCH_UP_WINDOW || this == SUPERSEDED || this == MISSED || this == BEYOND_MAX_CATCH_UP
                    || this == NOT_REGISTERED;
        }

        /** @return the reason the history shows as {@code text}, if it is one */
        public static Optional<SkipReason> ofText(String text) {
            return Arrays.stream(values()).filter(reason -> reason.text.equals(text)).findFirst();
        }
    }

    /**
     * Records, in a transaction of its own, that an instant of these jobs was not fired, and why; once per
     * (job, instant, reason), however often it is recorded, and not for a job whose instant another fire committed:
     * an instant has one outcome. A skip recorded settles the instant for the schedule's own later fires of it
     * ({@link FireLedger#claim}). A failure to record it is logged, not thrown: the instant was not going to fire
     * either way.
     */
    public void skipped(List<String> jobs, Instant scheduledAt, SkipReason reason, FireTrigger trigger, String node) {
        skipped(jobs, scheduledAt, reason.text(), trigger, node);
    }

    /**
     * As {@link #skipped(List, Instant, SkipReason, FireTrigger, String)}, for a reason of the job's own definition
     * rather than one of {@link SkipReason}: a calendar it is excluded by, its active period.
     *
     * @param reason the reason as the history shows it, at most 200 characters
     */
    public void skipped(List<String> jobs, Instant scheduledAt, String reason, FireTrigger trigger, String node) {
        if (jobs.isEmpty()) {
            return;
        }
        recordSkips(() -> insertSkips(jobs, scheduledAt, reason, trigger, node), "scheduledAt=" + scheduledAt
                + " reason=" + reason + " jobs=" + (jobs.size() <= 10 ? jobs : jobs.size()));
    }

    /** The insert of {@link #skipped(List, Instant, String, FireTrigger, String)}, in the caller's transaction. */
    private List<String[]> insertSkips(List<String> jobs, Instant scheduledAt, String reason, FireTrigger trigger,
                                       String node) {
        return jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node,
                                                          trigger_kind, attempted_at)
                        SELECT u.job, :at, 1, 'skipped', :reason, :node, :trigger, :now FROM unnest(:jobs::varchar[]) AS u(job)
                        -- an instant another fire of it committed, or attempted, keeps that fire's outcome
                        WHERE NOT EXISTS (SELECT 1 FROM onebeat_fire f
                                          WHERE f.job_name = u.job AND f.scheduled_at = :at AND f.run_id = '')
                          AND NOT EXISTS (SELECT 1 FROM onebeat_fire_attempt a
                                          WHERE a.job_name = u.job AND a.scheduled_at = :at AND a.run_id = ''
                                            AND a.outcome = 'failed')
                        ON CONFLICT (job_name, scheduled_at, run_id, reason) WHERE outcome = 'skipped' DO NOTHING
                        RETURNING job_name, reason
                        """)
                .param("at", Timestamp.from(scheduledAt)).param("reason", reason).param("node", node)
                .param("trigger", trigger.column()).param("now", Timestamp.from(clock.instant()))
                .param("jobs", jobs.toArray(String[]::new))
                .query(FireAttempts::skip).list();
    }

    /**
     * Records the schedule's fire of an instant skipped by the overlap policy, in a transaction that pins the job's
     * lock while a fire of another instant holds it: the lock row is read {@code FOR SHARE}
     * ({@link JobLockTable#heldByAnotherInstant}), so that fire's release, and any other fire's taking of the lock (a
     * recovery of this instant, say), wait for this record, and then find it ({@link FireLedger#claim}). Recorded
     * while the database is away, for as long as {@link #skipped} tries, the skip would otherwise land after another
     * fire of the instant had begun, and the instant would have two outcomes.
     *
     * @param lock the job's lock row, as {@link JobLocks.Acquired#lock}
     * @param unpinned record it even if no fire of another instant holds the lock any more (the caller asked for the
     *     lock often enough); logged
     * @return false if no fire of another instant held the lock by then: nothing is recorded, and the caller asks for
     *     the lock again; true when recorded, or given up after trying (logged)
     */
    boolean skippedWhileHeld(String job, FireRequest request, String lock, boolean unpinned) {
        String reason = SkipReason.OVERLAP.text();
        Optional<List<String[]>> recorded = retried(() -> {
            if (!locks.heldByAnotherInstant(lock, request.scheduledAt())) {
                if (!unpinned) {
                    return HOLDER_GONE;
                }
                log.warn("instant skipped for overlap although no fire of another instant holds the lock any more, "
                        + "after {} rounds job={} scheduledAt={}", FirePath.MAX_OVERLAP_ROUNDS, job, request.scheduledAt());
            }
            return insertSkips(List.of(job), request.scheduledAt(), reason, request.trigger(), request.node());
        }, "skipped instants", "scheduledAt=" + request.scheduledAt() + " reason=" + reason + " jobs=" + job);
        if (recorded.isPresent() && recorded.get() == HOLDER_GONE) {
            log.info("the running fire an instant met released the lock before its skip was recorded, asking for the "
                    + "lock again job={} scheduledAt={}", job, request.scheduledAt());
            return false;
        }
        recorded.ifPresent(this::countSkips);
        return true;
    }

    /**
     * Writes skipped instants in a transaction of their own, trying again with growing pauses while the database
     * cannot take them, for at most {@link #RECORD_SKIPS_FOR} or until the replica stops; then logs what was lost.
     */
    private void recordSkips(Supplier<List<String[]>> insert, String what) {
        retried(insert, "skipped instants", what).ifPresent(this::countSkips);
    }

    /** onebeat_job_skipped_total{job,reason}: counted once per (job, instant, reason), as recorded. */
    private void countSkips(List<String[]> recorded) {
        recorded.forEach(skip -> Counter.builder("onebeat.job.skipped")
                .description("Instants recorded skipped, by reason").tag("job", skip[0]).tag("reason", skip[1])
                .register(meters).increment());
    }

    /**
     * Runs {@code work} in a transaction of its own, trying again with growing pauses while the database cannot take
     * it, for at most {@link #RECORD_SKIPS_FOR} or until the replica stops; then logs what was lost.
     *
     * @return what {@code work} returned (never null), or empty when given up
     */
    private <T> Optional<T> retried(Supplier<T> work, String kind, String what) {
        Instant giveUp = clock.instant().plus(RECORD_SKIPS_FOR);
        Duration pause = FIRST_PAUSE;
        while (true) {
            try {
                return Optional.of(transactions.execute(status -> work.get()));
            } catch (RuntimeException e) {
                if (stopping || clock.instant().isAfter(giveUp)) {
                    log.error("{} not recorded {} error={}", kind, what, e.toString(), e);
                    return Optional.empty();
                }
                log.warn("could not record {}, trying again in {} ms {} error={}", kind, pause.toMillis(), what,
                        e.toString());
                if (!Pauses.sleep(pause)) {
                    log.error("{} not recorded, interrupted {}", kind, what);
                    return Optional.empty();
                }
                pause = Pauses.doubled(pause, MAX_PAUSE);
            }
        }
    }

    /**
     * Records, in a transaction of its own, many skipped (job, instant) pairs at once, as {@link #skipped(List, Instant,
     * SkipReason, FireTrigger, String)} does one instant. Each instant names only jobs that were members of the
     * schedule at it ({@link CatchUpPlan}): a job that has since moved to another schedule keeps its record.
     *
     * @param skips by reason, then by instant, the jobs
     */
    void skipped(Map<SkipReason, ? extends Map<Instant, List<String>>> skips, FireTrigger trigger, String node) {
        List<String> jobs = new ArrayList<>();
        List<String> instants = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        skips.forEach((reason, byInstant) -> byInstant.forEach((at, names) -> names.forEach(name -> {
            jobs.add(name);
            instants.add(at.toString());
            reasons.add(reason.text());
        })));
        for (int from = 0; from < jobs.size(); from += SKIPS_PER_STATEMENT) {
            int to = Math.min(jobs.size(), from + SKIPS_PER_STATEMENT);
            int start = from;
            recordSkips(() -> jdbc.sql("""
                            INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node,
                                                              trigger_kind, attempted_at)
                            SELECT u.job, u.at, 1, 'skipped', u.reason, ?, ?, ?
                            FROM unnest(?::varchar[], ?::timestamptz[], ?::varchar[]) AS u(job, at, reason)
                            WHERE NOT EXISTS (SELECT 1 FROM onebeat_fire f
                                              WHERE f.job_name = u.job AND f.scheduled_at = u.at AND f.run_id = '')
                              AND NOT EXISTS (SELECT 1 FROM onebeat_fire_attempt a
                                              WHERE a.job_name = u.job AND a.scheduled_at = u.at AND a.run_id = ''
                                                AND a.outcome = 'failed')
                            -- once per (job, instant, reason), however often a recovery repeats the fire
                            ON CONFLICT (job_name, scheduled_at, run_id, reason) WHERE outcome = 'skipped' DO NOTHING
                            RETURNING job_name, reason
                            """)
                    .params(node, trigger.column(), Timestamp.from(clock.instant()),
                            jobs.subList(start, to).toArray(String[]::new),
                            instants.subList(start, to).toArray(String[]::new),
                            reasons.subList(start, to).toArray(String[]::new))
                    .query(FireAttempts::skip).list(), "count=" + (to - from) + " of " + jobs.size());
        }
    }

    /** @return false if a failure of this attempt was recorded already, by whichever replica or fire */
    private boolean insertFailed(String job, Instant scheduledAt, String run, int attempt, Throwable error, String node,
                                 FireTrigger trigger, Instant at, Instant retryAt) {
        return jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, run_id, attempt, outcome, error_class,
                                                          error_message, node, trigger_kind, attempted_at, retry_at)
                        VALUES (?, ?, ?, ?, 'failed', ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (job_name, scheduled_at, run_id, attempt) WHERE outcome = 'failed' DO NOTHING
                        """)
                .params(job, Timestamp.from(scheduledAt), FireRun.column(run), attempt,
                        error == null ? null : error.getClass().getName(), message(error), node, trigger.column(),
                        Timestamp.from(at), retryAt == null ? null : Timestamp.from(retryAt))
                .update() == 1;
    }

    private static String message(Throwable error) {
        if (error == null) {
            return null;
        }
        String message = String.valueOf(error.getMessage());
        return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
    }

    @Override
    public void destroy() {
        stopping = true;
    }
}
