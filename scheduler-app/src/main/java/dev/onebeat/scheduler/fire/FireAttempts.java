package dev.onebeat.scheduler.fire;

import dev.onebeat.job.PeriodicJob;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
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

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final RetryScheduler retries;
    private final Clock clock;
    private volatile boolean stopping;

    FireAttempts(JdbcClient jdbc, TransactionTemplate transactions, RetryScheduler retries, Clock clock) {
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
        NOT_RECORDED
    }

    /**
     * Records a failed attempt and arms the next one, or gives the instant up.
     *
     * @param run the run outside the schedule it belongs to, or null
     * @param attempt the attempt that failed, from 1
     */
    public AfterFailure failed(PeriodicJob job, Instant scheduledAt, String run, int attempt, FireTrigger trigger,
                               String node, Throwable error) {
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
        while (true) {
            try {
                transactions.executeWithoutResult(status -> {
                    insert(job.name(), scheduledAt, run, attempt, "failed", null, error, node, trigger, failedAt, armed);
                    if (armed != null) {
                        retries.schedule(job.name(), scheduledAt, run, next, armed);
                    }
                });
                break;
            } catch (RuntimeException e) {
                if (stopping || interrupted || clock.instant().isAfter(scheduledAt.plus(job.catchUpWindow()))) {
                    log.error("failed fire not recorded, its instant has no retry job={} scheduledAt={} attempt={} "
                                    + "error={} recordError={}", job.name(), scheduledAt, attempt, error, e.toString(), e);
                    return AfterFailure.NOT_RECORDED;
                }
                log.warn("could not record a failed fire, trying again in {} ms job={} scheduledAt={} attempt={} "
                        + "error={}", pause.toMillis(), job.name(), scheduledAt, attempt, e.toString());
                // an interrupted thread gives up this failure's record only; the others go on trying
                interrupted = !sleep(pause);
                pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
            }
        }
        if (armed != null) {
            log.warn("fire failed and rolled back, retrying job={} scheduledAt={} attempt={} nextAttempt={} of {} at={} "
                    + "error={}", job.name(), scheduledAt, attempt, next, job.retry().attempts(), armed, error.toString());
            return AfterFailure.RETRYING;
        }
        log.error("fire failed for good, no attempt left job={} scheduledAt={} attempts={} reason={} error={}",
                job.name(), scheduledAt, attempt,
                next > job.retry().attempts() ? "last attempt" : "next attempt outside the catch-up window "
                        + job.catchUpWindow(), error.toString(), error);
        return AfterFailure.GIVEN_UP;
    }

    /** Records, in the caller's transaction, that these jobs' fires of the instant were duplicates. */
    void duplicates(List<String> jobs, Instant scheduledAt, String run, int attempt, FireTrigger trigger, String node) {
        if (jobs.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, run_id, attempt, outcome, node,
                                                          trigger_kind, attempted_at)
                        SELECT u.job, ?, ?, ?, 'duplicate', ?, ?, ? FROM unnest(?::varchar[]) AS u(job)
                        """)
                .params(Timestamp.from(scheduledAt), FireRun.column(run), attempt, node, trigger.column(),
                        Timestamp.from(clock.instant()), jobs.toArray(String[]::new))
                .update();
    }

    /** Why an instant of a job was not fired; the {@code reason} of its skipped attempt. */
    public enum SkipReason {
        /** An operator's pause. */
        PAUSED("paused"),
        /** Older than the job's catch-up window when a replica could fire it. */
        OUTSIDE_CATCH_UP_WINDOW("outside catch-up window");

        private final String text;

        SkipReason(String text) {
            this.text = text;
        }

        /** @return as the history shows it */
        public String text() {
            return text;
        }
    }

    /**
     * Records, in a transaction of its own, that an instant of these jobs was not fired, and why; once per
     * (job, instant, reason), however often it is recorded. A failure to record it is logged, not thrown:
     * the instant was not going to fire either way.
     */
    public void skipped(List<String> jobs, Instant scheduledAt, SkipReason reason, FireTrigger trigger, String node) {
        if (jobs.isEmpty()) {
            return;
        }
        try {
            transactions.executeWithoutResult(status -> jdbc.sql("""
                            INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node,
                                                              trigger_kind, attempted_at)
                            SELECT u.job, ?, 1, 'skipped', ?, ?, ?, ? FROM unnest(?::varchar[]) AS u(job)
                            ON CONFLICT (job_name, scheduled_at, run_id, reason) WHERE outcome = 'skipped' DO NOTHING
                            """)
                    .params(Timestamp.from(scheduledAt), reason.text(), node, trigger.column(),
                            Timestamp.from(clock.instant()), jobs.toArray(String[]::new))
                    .update());
        } catch (RuntimeException e) {
            log.warn("could not record skipped instants scheduledAt={} reason={} jobs={} error={}", scheduledAt,
                    reason.text(), jobs.size() <= 10 ? jobs : jobs.size(), e.toString());
        }
    }

    private void insert(String job, Instant scheduledAt, String run, int attempt, String outcome, String reason,
                        Throwable error, String node, FireTrigger trigger, Instant at, Instant retryAt) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, run_id, attempt, outcome, reason,
                                                          error_class, error_message, node, trigger_kind, attempted_at,
                                                          retry_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                .params(job, Timestamp.from(scheduledAt), FireRun.column(run), attempt, outcome, reason,
                        error == null ? null : error.getClass().getName(), message(error), node, trigger.column(),
                        Timestamp.from(at), retryAt == null ? null : Timestamp.from(retryAt))
                .update();
    }

    private static String message(Throwable error) {
        if (error == null) {
            return null;
        }
        String message = String.valueOf(error.getMessage());
        return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
    }

    private static boolean sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void destroy() {
        stopping = true;
    }
}
