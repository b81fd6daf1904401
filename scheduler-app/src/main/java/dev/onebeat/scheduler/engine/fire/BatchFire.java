package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import dev.onebeat.scheduler.engine.outbox.OutboxWriter;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.engine.trace.SpanHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Component;

/**
 * Fires many jobs due on the same instant in one transaction, with the guarantees of
 * {@link FirePath}: each job's cluster lock held throughout, its ledger row read before it runs and
 * written after, its tasks written with its ledger row.
 *
 * <ol>
 *   <li>one statement locks the ShedLock rows of all the jobs, after one that creates those missing
 *       ({@link JobLockTable#lockAll}); a job whose lock a single fire holds is left to the caller, which fires
 *       it alone once the lock is free;</li>
 *   <li>one statement reads which of them have a ledger row for the instant ({@link FireLedger#unfired}): a job
 *       already fired is a duplicate. While the batch holds their locks, only a fire that outlived its own lock
 *       ({@code lockAtMostFor}) can still write that row;</li>
 *   <li>each job runs; one that touches the database runs under its own savepoint, so a failing job
 *       rolls back alone (it writes no ledger row, its instant can fire again) and the others commit;</li>
 *   <li>one statement per 1,000 tasks writes the dispatched tasks, one writes the ledger rows of the jobs that
 *       succeeded, complete ({@link FireLedger#recordAll}); commit. The ledger's unique key is still the guard: a
 *       row written meanwhile (by a fire that outlived its lock) fails the batch, whose jobs are then fired alone,
 *       that one as a duplicate.</li>
 * </ol>
 * Ten thousand jobs of one instant thus cost a few statements and one commit per batch instead of six
 * commits per job. If the transaction itself fails, nothing of it stays and every job of the batch is
 * handed back to the caller to be fired alone.
 */
@Component
public class BatchFire {

    private static final Logger log = LoggerFactory.getLogger(BatchFire.class);

    private final JobLockTable locks;
    private final FireLedger ledger;
    private final OutboxWriter outbox;
    private final DataSource dataSource;
    private final FireReports reports;
    private final Clock clock;
    private final FireProperties properties;
    private final FireAttempts attempts;
    private final FireServices services;

    BatchFire(FireServices services, JobLockTable locks) {
        this.services = services;
        this.locks = locks;
        this.ledger = services.ledger();
        this.outbox = services.outbox();
        this.dataSource = services.dataSource();
        this.reports = services.reports();
        this.clock = services.clock();
        this.properties = services.properties();
        this.attempts = services.attempts();
    }

    /**
     * What a batch did.
     *
     * @param results the fires that committed, were duplicates or failed
     * @param notFired jobs this batch did not fire: their lock was busy, or the batch's transaction failed;
     *     the caller fires them alone
     */
    public record Outcome(List<FireResult> results, List<PeriodicJob> notFired) {
    }

    /**
     * @param jobs distinct jobs due at the request's instant
     * @param request the schedule's own fire of the instant, its first attempt: a batch fires no run or retry
     * @return what happened; failures are logged and returned, never thrown
     * @throws IllegalArgumentException if the request is of a run or a later attempt
     */
    public Outcome fire(List<PeriodicJob> jobs, FireRequest request) {
        if (request.run() != null || request.attempt() != 1) {
            throw new IllegalArgumentException("request: a batch fires the first attempt of a schedule's instant, was "
                    + request);
        }
        Instant scheduledAt = request.scheduledAt();
        String node = request.node();
        // no fire begins before its instant by the database's clock (see FirePath); one refused here is refused alone
        if (!services.databaseClock().awaitReached(scheduledAt)) {
            log.warn("batch of fires not begun: its instant lies ahead of the database's clock scheduledAt={} node={} "
                    + "jobs={}", scheduledAt, node, jobs.size());
            return new Outcome(List.of(), jobs);
        }
        Instant start = clock.instant();
        Batch batch;
        // one span for the batch's transaction, current in it: every task of its jobs continues its trace
        SpanHandle span = services.traces().batch(jobs.size(), scheduledAt,
                request.trigger().name().toLowerCase(Locale.ROOT), node);
        try {
            batch = services.transactions().execute(status -> run(jobs, request, start));
            span.outcome(batch.failed.isEmpty() ? "committed" : "partly-failed", null);
        } catch (DuplicateKeyException e) {
            // not the database failing: a fire of one of these jobs that outlived its lock committed its ledger row
            span.outcome("rolled-back", e);
            log.warn("batch of fires rolled back: a fire that outlived its lock wrote the ledger row of one of its "
                    + "jobs meanwhile; firing them one by one scheduledAt={} node={} jobs={} error={}", scheduledAt,
                    node, jobs.size(), e.getMostSpecificCause().toString());
            return new Outcome(List.of(), jobs);
        } catch (RuntimeException e) {
            span.outcome("rolled-back", e);
            reports.databaseFailed(node, e);
            log.warn("batch of fires rolled back, firing its jobs one by one scheduledAt={} node={} jobs={} error={}",
                    scheduledAt, node, jobs.size(), e.toString(), e);
            return new Outcome(List.of(), jobs);
        } finally {
            span.close();
        }
        // the lag by the database's clock, the cluster's one (as FirePath's), from each job's planned moment
        report(batch, request, Duration.between(start, clock.instant()),
                Duration.between(scheduledAt, services.databaseClock().now()), offsets(jobs, request));
        return new Outcome(batch.fired, batch.busy);
    }

    private Batch run(List<PeriodicJob> jobs, FireRequest request, Instant start) {
        Instant scheduledAt = request.scheduledAt();
        Map<String, PeriodicJob> byName = new LinkedHashMap<>();
        jobs.stream().sorted((a, b) -> a.name().compareTo(b.name())).forEach(job -> byName.put(job.name(), job));
        Batch batch = new Batch();
        // the jobs run one after the other in this transaction, each within its lockAtMostFor
        FireSession.allowIdle(dataSource, byName.values().stream().map(PeriodicJob::lockAtMostFor)
                .reduce(properties.lockWaitMargin(), Duration::plus));
        Set<String> locked = new HashSet<>(locks.lockAll(List.copyOf(byName.keySet()), JobLockTable.lockedBy(request)));
        List<String> lockedNames = new ArrayList<>();
        byName.forEach((name, job) -> {
            if (locked.contains(name)) {
                lockedNames.add(name);
            } else {
                batch.busy.add(job);
            }
        });
        FireLedger.Unfired read = ledger.unfired(lockedNames, request);
        Set<String> unfired = new HashSet<>(read.unfired());
        attempts.duplicates(lockedNames.stream().filter(name -> !unfired.contains(name)).toList(), request);
        Connection connection = DataSourceUtils.getConnection(dataSource);
        List<Running> succeeded = new ArrayList<>();
        for (String name : lockedNames) {
            if (!unfired.contains(name)) {
                batch.fired.add(new FireResult(name, scheduledAt, FireOutcome.DUPLICATE, 0, 0, Duration.ZERO, null));
                continue;
            }
            Running running = new Running(byName.get(name), request, connection);
            if (running.run()) {
                succeeded.add(running);
            } else {
                batch.failed.add(running);
            }
        }
        writeTasks(scheduledAt, succeeded);
        long durationMillis = Duration.between(start, clock.instant()).toMillis();
        List<String> names = new ArrayList<>(succeeded.size());
        int[] tasks = new int[succeeded.size()];
        int[] duplicates = new int[succeeded.size()];
        for (int i = 0; i < succeeded.size(); i++) {
            Running running = succeeded.get(i);
            names.add(running.job.name());
            tasks[i] = running.context.inserted();
            duplicates[i] = running.context.duplicates();
        }
        ledger.recordAll(names, request, read.readAt(), tasks, duplicates, durationMillis);
        Duration duration = Duration.ofMillis(durationMillis);
        for (int i = 0; i < succeeded.size(); i++) {
            batch.fired.add(new FireResult(names.get(i), scheduledAt, FireOutcome.COMMITTED, tasks[i], duplicates[i],
                    duration, null));
        }
        for (Running failed : batch.failed) {
            batch.fired.add(new FireResult(failed.job.name(), scheduledAt, FireOutcome.FAILED, 0, 0, duration,
                    failed.error));
            batch.failedJobs.put(failed.job.name(), failed.job);
        }
        return batch;
    }

    /** Writes the tasks the jobs left buffered, a statement per {@code batchSize} tasks. */
    private void writeTasks(Instant scheduledAt, List<Running> succeeded) {
        List<String> jobs = new ArrayList<>();
        List<OutboxTask> tasks = new ArrayList<>();
        Map<String, Running> byName = new LinkedHashMap<>();
        for (Running running : succeeded) {
            byName.put(running.job.name(), running);
            for (OutboxTask task : running.buffered) {
                jobs.add(running.job.name());
                tasks.add(task);
                if (tasks.size() == properties.batchSize()) {
                    insert(scheduledAt, jobs, tasks, byName);
                }
            }
        }
        insert(scheduledAt, jobs, tasks, byName);
        byName.values().forEach(running -> running.context.countInserted(running.insertedElsewhere));
    }

    private void insert(Instant scheduledAt, List<String> jobs, List<OutboxTask> tasks, Map<String, Running> byName) {
        outbox.insertAll(scheduledAt, jobs, tasks).forEach((job, rows) -> byName.get(job).insertedElsewhere += rows);
        jobs.clear();
        tasks.clear();
    }

    /**
     * @return how far past the instant each job's fire was planned ({@link FireMoments}), for the schedule's own fire
     *     of jobs that have a jitter or a spread; empty otherwise
     */
    private static Map<String, Duration> offsets(List<PeriodicJob> jobs, FireRequest request) {
        Map<String, Duration> offsets = new HashMap<>();
        if (request.waitsForPlannedMoment()) {
            for (PeriodicJob job : jobs) {
                if (FireMoments.moves(job)) {
                    offsets.put(job.name(), FireMoments.offset(job, request.scheduledAt()));
                }
            }
        }
        return offsets;
    }

    /** @param sinceInstant commit time minus the instant; each job's lag is from its planned moment */
    private void report(Batch batch, FireRequest request, Duration duration, Duration sinceInstant,
                        Map<String, Duration> offsets) {
        FireTrigger trigger = request.trigger();
        String node = request.node();
        int committed = 0;
        int duplicates = 0;
        int tasks = 0;
        for (FireResult result : batch.fired) {
            switch (result.outcome()) {
                case COMMITTED -> {
                    committed++;
                    tasks += result.dispatched();
                    reports.committed(result, sinceInstant.minus(offsets.getOrDefault(result.job(), Duration.ZERO)),
                            node, trigger, true);
                }
                case DUPLICATE -> {
                    duplicates++;
                    // a recovery re-runs a whole batch of which the dead replica had committed some
                    reports.duplicate(result, node, trigger, trigger == FireTrigger.RECOVERY);
                }
                case FAILED -> reports.failed(batch.failedJobs.get(result.job()), result, request);
            }
        }
        log.info("fires committed scheduledAt={} node={} trigger={} jobs={} tasks={} duplicates={} failed={} busy={} "
                        + "durationMs={} lagMs={}", request.scheduledAt(), node, trigger.column(), committed, tasks,
                duplicates, batch.failed.size(), batch.busy.size(), duration.toMillis(),
                sinceInstant.minus(offsets.values().stream().min(Duration::compareTo).orElse(Duration.ZERO)).toMillis());
    }

    /** What one transaction of fires did. */
    private static final class Batch {
        final List<FireResult> fired = new ArrayList<>();
        final List<PeriodicJob> busy = new ArrayList<>();
        final List<Running> failed = new ArrayList<>();
        final Map<String, PeriodicJob> failedJobs = new HashMap<>();
    }

    /** One job of the batch: its context, and the savepoint set before it first touched the database. */
    private final class Running {
        final PeriodicJob job;
        final FireContext context;
        final Connection connection;
        Savepoint savepoint;
        List<OutboxTask> buffered = List.of();
        int insertedElsewhere;
        Exception error;

        Running(PeriodicJob job, FireRequest request, Connection connection) {
            this.job = job;
            this.connection = connection;
            // a batch fires the schedule's own fires (on time, after a misfire, recovered): their expiry counts from
            // the instant, or from the job's planned moment when a jitter or a spread moves it
            this.context = services.context(job, request, connection, this::setSavepoint);
        }

        /** @return whether the job succeeded; if not, what it did is rolled back and {@link #error} says why */
        boolean run() {
            try {
                job.run(context);
                buffered = context.takeBuffered();
                outbox.requireRouted(buffered);
                if (savepoint != null) {
                    connection.releaseSavepoint(savepoint);
                }
                return true;
            } catch (Exception e) {
                error = e;
                rollBack();
                return false;
            }
        }

        private void setSavepoint() {
            try {
                savepoint = connection.setSavepoint();
            } catch (SQLException e) {
                throw new IllegalStateException("could not set the savepoint of job '" + job.name() + "'", e);
            }
        }

        private void rollBack() {
            if (savepoint == null) {
                return;
            }
            try {
                connection.rollback(savepoint);
            } catch (SQLException e) {
                // the batch cannot go on without it: failing the transaction hands every job back to be fired alone
                throw new IllegalStateException("could not roll back job '" + job.name() + "' to its savepoint", e);
            }
        }
    }
}
