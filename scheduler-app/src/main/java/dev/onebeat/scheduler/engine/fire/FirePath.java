package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.cluster.DatabaseClock;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.engine.trace.SpanHandle;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Component;

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

    /**
     * How often an instant judged overlapping asks for the lock, in all, when the fire it met was gone by its record;
     * on the last round the skip is recorded whoever holds the lock.
     */
    static final int MAX_OVERLAP_ROUNDS = 5;

    private final FireServices services;
    private final JobLocks locks;

    FirePath(FireServices services, JobLocks locks) {
        this.services = services;
        this.locks = locks;
    }

    /**
     * Fires {@code job} as {@code request} says, under the job's cluster lock; a failure arms the next attempt, if the
     * job's retry policy and catch-up window leave one ({@link FireAttempts}).
     *
     * @return what happened; failures are logged and returned, never thrown
     */
    public FireResult fire(PeriodicJob job, FireRequest request) {
        try (SpanHandle span = services.traces().fire(job.name(), request.scheduledAt(),
                request.trigger().name().toLowerCase(Locale.ROOT), request.node())) {
            FireResult result = fireInSpan(job, request);
            span.outcome(result.outcome().name().toLowerCase(Locale.ROOT), result.error());
            return result;
        }
    }

    private FireResult fireInSpan(PeriodicJob job, FireRequest request) {
        Clock clock = services.clock();
        if (!services.databaseClock().awaitReached(request.scheduledAt())) {
            return failed(job, request, clock.instant(), aheadOfDatabase(request.scheduledAt()));
        }
        if (request.waitsForPlannedMoment()) {
            // a fire of its own (handed back by a replica that does not register the job, or recovered alone) keeps
            // the job's jitter and spread as its schedule's waves do; a stop ends the wait, not the fire
            services.moments().await(FireMoments.plannedAt(job, request.scheduledAt()));
        }
        Instant start = clock.instant();
        JobLocks.Acquired lock;
        int asked = 0;
        while (true) {
            try {
                lock = locks.acquire(job, request);
            } catch (RuntimeException e) {
                // the lock table could not be read or written (the database away): a failed attempt, tried again
                return failed(job, request, start, e);
            }
            if (!lock.skipped()) {
                break;
            }
            // the skip stands only while a fire of another instant holds the lock: its release, and any other fire of
            // this instant, then come after the skip, and find it. Otherwise the lock is asked for again, unless the
            // instant has left its catch-up window meanwhile (the record may have been tried for minutes); on the last
            // round the skip is recorded whoever holds the lock
            if (services.attempts().skippedWhileHeld(job.name(), request, lock.lock(),
                    ++asked >= MAX_OVERLAP_ROUNDS)) {
                return new FireResult(job.name(), request.scheduledAt(), FireOutcome.SKIPPED, 0, 0,
                        Duration.between(start, clock.instant()), null);
            }
            if (clock.instant().isAfter(request.scheduledAt().plus(job.catchUpWindow()))) {
                services.attempts().skipped(List.of(job.name()), request.scheduledAt(),
                        FireAttempts.SkipReason.OUTSIDE_CATCH_UP_WINDOW, request.trigger(), request.node());
                return new FireResult(job.name(), request.scheduledAt(), FireOutcome.SKIPPED, 0, 0,
                        Duration.between(start, clock.instant()), null);
            }
        }
        if (lock.held() == null) {
            IllegalStateException busy = new IllegalStateException("lock " + JobLocks.name(job, request.scheduledAt())
                    + " stayed busy past lockAtMostFor=" + job.lockAtMostFor() + "; another fire of this job holds it");
            return failed(job, request, start, busy);
        }
        try {
            return fireLocked(job, request, start);
        } finally {
            lock.held().release();
        }
    }

    /**
     * The transactional part of {@link #fire}, without the cluster lock. Exposed so tests can show
     * that the ledger alone stops a second fire that got past Quartz and the lock.
     */
    public FireResult fireLocked(PeriodicJob job, FireRequest request, Instant start) {
        FireResult result;
        try {
            result = services.transactions().execute(status -> runInTransaction(job, request, start));
        } catch (RuntimeException e) {
            return failed(job, request, start, e instanceof JobFailedException ? e.getCause() : e);
        }
        if (result.outcome() == FireOutcome.DUPLICATE) {
            services.reports().duplicate(result, request.node(), request.trigger(), false);
        } else {
            // the lag by the database's clock, the cluster's one: the same whichever replica fired; from the job's
            // planned moment, a jitter or a spread being no lateness
            Instant planned = request.waitsForPlannedMoment() ? FireMoments.plannedAt(job, request.scheduledAt())
                    : request.scheduledAt();
            services.reports().committed(result, Duration.between(planned, services.databaseClock().now()),
                    request.node(), request.trigger(), false);
        }
        return result;
    }

    private FireResult runInTransaction(PeriodicJob job, FireRequest request, Instant start) {
        DataSource dataSource = services.dataSource();
        Clock clock = services.clock();
        FireSession.allowIdle(dataSource, job.lockAtMostFor().plus(services.properties().lockWaitMargin()));
        if (!services.ledger().claim(job.name(), request)) {
            services.attempts().duplicates(List.of(job.name()), request);
            return new FireResult(job.name(), request.scheduledAt(), FireOutcome.DUPLICATE, 0, 0,
                    Duration.between(start, clock.instant()), null);
        }
        FireContext context = services.context(job, request, DataSourceUtils.getConnection(dataSource), () -> { });
        try {
            job.run(context);
        } catch (Exception e) {
            throw new JobFailedException(e);
        }
        context.flush();
        Duration duration = Duration.between(start, clock.instant());
        services.ledger().complete(job.name(), request.scheduledAt(), request.run(), context.inserted(),
                context.duplicates(), duration.toMillis());
        return new FireResult(job.name(), request.scheduledAt(), FireOutcome.COMMITTED, context.inserted(),
                context.duplicates(), duration, null);
    }

    private FireResult failed(PeriodicJob job, FireRequest request, Instant start, Throwable error) {
        FireResult result = new FireResult(job.name(), request.scheduledAt(), FireOutcome.FAILED, 0, 0,
                Duration.between(start, services.clock().instant()), error);
        services.reports().failed(job, result, request);
        return result;
    }

    /** @return the error of a fire refused because its instant lies too far ahead of the database's clock */
    private IllegalStateException aheadOfDatabase(Instant scheduledAt) {
        return new IllegalStateException("instant " + scheduledAt + " lies "
                + services.databaseClock().ahead(scheduledAt).toMillis()
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
