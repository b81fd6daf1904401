package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.cluster.DatabaseClock;
import dev.onebeat.scheduler.engine.outbox.OutboxWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one path every fire takes, whoever triggers it.
 *
 * <ol>
 *   <li>wait until the database's clock has reached the instant ({@link DatabaseClock}): a replica whose clock runs
 *       ahead is handed its fires early by Quartz, and no fire may begin before its instant;</li>
 *   <li>take the job's cluster lock {@code onebeat:<job>} (ShedLock, database time);</li>
 *   <li>in one transaction: claim (job, scheduled instant) in the ledger — if it is already there,
 *       this is a duplicate fire: count it, log it, dispatch nothing; otherwise run the job, whose
 *       dispatches go to the outbox in batches; commit;</li>
 *   <li>release the lock; notify listeners (after commit only).</li>
 * </ol>
 *
 * <p>Any failure rolls everything back, the ledger row included, so the instant can be fired again
 * and will produce the same task keys: the job's retry policy arms the next attempt
 * ({@link FireAttempts}), and an operator can re-run it.
 */
@Component
public class FirePath {

    private final JobLocks locks;
    private final FireLedger ledger;
    private final OutboxWriter outbox;
    private final TransactionTemplate transactions;
    private final DataSource dataSource;
    private final JsonMapper json;
    private final FireReports reports;
    private final Clock clock;
    private final FireProperties properties;
    private final FireAttempts attempts;
    private final DatabaseClock databaseClock;

    FirePath(JobLocks locks, FireLedger ledger, OutboxWriter outbox, TransactionTemplate transactions,
             DataSource dataSource, JsonMapper json, FireReports reports, Clock clock, FireProperties properties,
             FireAttempts attempts, DatabaseClock databaseClock) {
        this.attempts = attempts;
        this.databaseClock = databaseClock;
        this.locks = locks;
        this.ledger = ledger;
        this.outbox = outbox;
        this.transactions = transactions;
        this.dataSource = dataSource;
        this.json = json;
        this.reports = reports;
        this.clock = clock;
        this.properties = properties;
    }

    /**
     * Fires {@code job} for {@code scheduledAt} under the job's cluster lock.
     *
     * @param node the firing replica's id, recorded in the ledger
     * @return what happened; failures are logged and returned, never thrown
     */
    public FireResult fire(PeriodicJob job, Instant scheduledAt, FireTrigger trigger, String node) {
        return fire(job, scheduledAt, trigger, node, 1);
    }

    /**
     * Fires attempt {@code attempt} of (job, scheduledAt); a failure arms the next attempt, if the job's
     * retry policy and catch-up window leave one ({@link FireAttempts}).
     */
    public FireResult fire(PeriodicJob job, Instant scheduledAt, FireTrigger trigger, String node, int attempt) {
        return fire(job, scheduledAt, null, trigger, node, attempt);
    }

    /**
     * Fires attempt {@code attempt} of a run of {@code job} outside its schedule, or of the schedule's own fire.
     *
     * @param run the run's id ("trigger now": its request id), with a ledger slot and task keys of its own; null for
     *     the schedule's fire of the instant
     */
    public FireResult fire(PeriodicJob job, Instant scheduledAt, String run, FireTrigger trigger, String node,
                           int attempt) {
        if (!databaseClock.awaitReached(scheduledAt)) {
            return failed(job, scheduledAt, run, trigger, node, attempt, clock.instant(), aheadOfDatabase(scheduledAt));
        }
        Instant start = clock.instant();
        boolean scheduled = run == null && trigger.scheduled();
        JobLocks.Acquired lock;
        try {
            lock = locks.acquire(job, scheduledAt, scheduled, trigger, node);
        } catch (RuntimeException e) {
            // the lock table could not be read or written (the database away): a failed attempt, tried again
            return failed(job, scheduledAt, run, trigger, node, attempt, start, e);
        }
        if (lock.skipped()) {
            attempts.skipped(List.of(job.name()), scheduledAt, FireAttempts.SkipReason.OVERLAP, trigger, node);
            return new FireResult(job.name(), scheduledAt, FireOutcome.SKIPPED, 0, 0,
                    Duration.between(start, clock.instant()), null);
        }
        if (lock.held() == null) {
            IllegalStateException busy = new IllegalStateException("lock " + JobLocks.name(job, scheduledAt)
                    + " stayed busy past lockAtMostFor=" + job.lockAtMostFor() + "; another fire of this job holds it");
            return failed(job, scheduledAt, run, trigger, node, attempt, start, busy);
        }
        try {
            return fireLocked(job, scheduledAt, run, trigger, node, start, attempt);
        } finally {
            lock.held().release();
        }
    }

    /**
     * The transactional part of {@link #fire}, without the cluster lock. Exposed so tests can show
     * that the ledger alone stops a second fire that got past Quartz and the lock.
     */
    public FireResult fireLocked(PeriodicJob job, Instant scheduledAt, String run, FireTrigger trigger, String node,
                                 Instant start, int attempt) {
        FireResult result;
        try {
            result = transactions.execute(status -> runInTransaction(job, scheduledAt, run, trigger, node, start,
                    attempt));
        } catch (RuntimeException e) {
            return failed(job, scheduledAt, run, trigger, node, attempt, start,
                    e instanceof JobFailedException ? e.getCause() : e);
        }
        if (result.outcome() == FireOutcome.DUPLICATE) {
            reports.duplicate(result, node, trigger, false);
        } else {
            // the lag by the database's clock, the cluster's one: the same whichever replica fired
            reports.committed(result, Duration.between(scheduledAt, databaseClock.now()), node, trigger, false);
        }
        return result;
    }

    private FireResult runInTransaction(PeriodicJob job, Instant scheduledAt, String run, FireTrigger trigger,
                                        String node, Instant start, int attempt) {
        FireSession.allowIdle(dataSource, job.lockAtMostFor().plus(properties.lockWaitMargin()));
        if (!ledger.claim(job.name(), scheduledAt, run, node, trigger, attempt)) {
            attempts.duplicates(List.of(job.name()), scheduledAt, run, attempt, trigger, node);
            return new FireResult(job.name(), scheduledAt, FireOutcome.DUPLICATE, 0, 0,
                    Duration.between(start, clock.instant()), null);
        }
        FireContext context = new FireContext(job.name(), scheduledAt, run,
                trigger.expiresFromFire(run) ? clock.instant() : null, DataSourceUtils.getConnection(dataSource),
                outbox, json, properties.batchSize(), properties.maxArgumentsSize().toBytes(), () -> { });
        try {
            job.run(context);
        } catch (Exception e) {
            throw new JobFailedException(e);
        }
        context.flush();
        Duration duration = Duration.between(start, clock.instant());
        ledger.complete(job.name(), scheduledAt, run, context.inserted(), context.duplicates(), duration.toMillis());
        return new FireResult(job.name(), scheduledAt, FireOutcome.COMMITTED, context.inserted(),
                context.duplicates(), duration, null);
    }

    private FireResult failed(PeriodicJob job, Instant scheduledAt, String run, FireTrigger trigger, String node,
                              int attempt, Instant start, Throwable error) {
        FireResult result = new FireResult(job.name(), scheduledAt, FireOutcome.FAILED, 0, 0,
                Duration.between(start, clock.instant()), error);
        reports.failed(job, result, run, attempt, trigger, node);
        return result;
    }

    /** @return the error of a fire refused because its instant lies too far ahead of the database's clock */
    private IllegalStateException aheadOfDatabase(Instant scheduledAt) {
        return new IllegalStateException("instant " + scheduledAt + " lies " + databaseClock.ahead(scheduledAt).toMillis()
                + " ms ahead of the database's clock, more than the " + DatabaseClock.MAX_WAIT + " a fire waits for it: "
                + "this replica's clock runs ahead (onebeat.cluster.max-clock-skew); not fired before its time");
    }

    /** Carries a job's checked exception out of the transaction callback, which then rolls back. */
    private static final class JobFailedException extends RuntimeException {
        JobFailedException(Exception cause) {
            super(cause);
        }
    }
}
