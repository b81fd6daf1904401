package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The cluster-wide lock {@code onebeat:<job>} every fire holds (ShedLock, database time), and the job's
 * overlap policy, which says what a scheduled instant does when it finds the lock held by a fire of another
 * instant of the job.
 *
 * <ul>
 *   <li>{@code BUFFER_ONE} (the default): it waits for the lock, if no other instant of the job is waiting
 *       already (the waiting slot {@code onebeat-waiting:<job>}, also a ShedLock lock, so one waiter across the
 *       cluster); otherwise it is skipped;</li>
 *   <li>{@code SKIP}: it is skipped;</li>
 *   <li>{@code ALLOW}: the lock is per instant ({@code onebeat:<job>@<epoch millis>}), so instants of the job do
 *       not meet; that row is deleted when the fire releases it.</li>
 * </ul>
 * The policy applies when the lock is held by the schedule's own fire of another instant, which was already running
 * when this instant fell due, on a replica still checking in to the cluster (both by database time,
 * {@link JobLockTable#holder}). Everything else is waited for: a lock
 * taken after that (the instants of a failover fired late, one after another), a lock left by a replica that died
 * (it frees itself at {@code lockAtMostFor}), a lock held for the same instant (a recovery racing the fire it
 * recovers, a retry), a lock held by a recovery, a retry, a manual run or a re-run (a crash or an operator must not
 * cost the schedule an instant), and any fire that is not a scheduled one itself. The ledger settles which of two
 * fires of one instant commits. The wait is bounded by the job's {@code lockAtMostFor} plus a margin, which also
 * covers a lock left behind by a replica that died mid-fire.
 *
 * <p>The holder writes its node, its kind of fire and its instant into ShedLock's {@code locked_by}
 * ({@code <node> <kind> <instant>}, kind {@code scheduled} or the trigger kind), which is how a later instant knows
 * whose fire it met. ShedLock's own unlock releases the row whoever holds it now; a fire that outlived its
 * {@code lockAtMostFor} would release the lock of the fire that took it over. The release here is fenced on the
 * {@code locked_at} this fire's lock was taken at ({@link JobLockTable#release}).
 */
@Component
class JobLocks {

    private static final Logger log = LoggerFactory.getLogger(JobLocks.class);
    static final String PREFIX = "onebeat:";
    /** The lock an instant under {@code BUFFER_ONE} holds while it waits for the job's lock. */
    static final String WAITING_PREFIX = "onebeat-waiting:";
    /** The row naming the oldest instant among the fires waiting for the job's lock, which goes first. */
    static final String NEXT_PREFIX = "onebeat-next:";

    private final LockProvider locks;
    private final JobLockTable table;
    private final Clock clock;
    private final FireProperties properties;

    JobLocks(LockProvider locks, JobLockTable table, Clock clock, FireProperties properties) {
        this.locks = locks;
        this.table = table;
        this.clock = clock;
        this.properties = properties;
    }

    /** A job lock held by this fire. */
    interface Held {
        /** Releases the lock unless a newer holder took it over; logs when it had. */
        void release();
    }

    /**
     * What came of asking for a job's lock.
     *
     * @param held the lock, when it was had
     * @param skipped whether the overlap policy skips the instant instead (the lock was held by another instant)
     * @param lock when skipped, the lock row's name: the skip stands only while a fire of another instant still
     *     holds it ({@link FireAttempts#skippedWhileHeld})
     */
    record Acquired(Held held, boolean skipped, String lock) {

        static final Acquired BUSY = new Acquired(null, false, null);

        static Acquired skipped(String lock) {
            return new Acquired(null, true, lock);
        }
    }

    /** @return the name of the job's lock row for that instant: per job, or per instant under {@code ALLOW} */
    static String name(PeriodicJob job, Instant scheduledAt) {
        return job.overlapPolicy() == OverlapPolicy.ALLOW ? PREFIX + job.name() + "@" + scheduledAt.toEpochMilli()
                : PREFIX + job.name();
    }

    /**
     * Takes the job's lock for a fire of {@code scheduledAt}, waiting for it as the overlap policy says.
     *
     * @param request the fire: the overlap policy applies to the schedule's own fire of the instant (on time or
     *     after a misfire); its trigger, when not a scheduled one, and its node are written with the instant into
     *     {@code locked_by}
     */
    Acquired acquire(PeriodicJob job, FireRequest request) {
        Instant scheduledAt = request.scheduledAt();
        boolean scheduled = request.scheduled();
        String name = name(job, scheduledAt);
        String lockedBy = JobLockTable.lockedBy(request);
        Optional<SimpleLock> lock = tryLock(name, job.lockAtMostFor());
        Optional<SimpleLock> waiting = Optional.empty();
        if (lock.isEmpty()) {
            // an overlap is the scheduled fire of another instant that was already running when this one fell due,
            // on a replica that is alive; a fire that took the lock later (instants fired late, one after the other,
            // after a failover) is waited for, and so are a recovery, a retry or a manual run, and a lock left by a
            // replica that died, until it expires
            Optional<JobLockTable.Holder> other = table.holder(name)
                    .filter(holder -> holder.alive() && holder.scheduled() && !holder.instant().equals(scheduledAt)
                            && !holder.lockedAt().isAfter(scheduledAt));
            if (scheduled && other.isPresent()) {
                if (job.overlapPolicy() == OverlapPolicy.SKIP) {
                    log.info("previous fire still running, instant skipped job={} scheduledAt={} running={}",
                            job.name(), scheduledAt, other.get().instant());
                    return Acquired.skipped(name);
                }
                waiting = tryLock(WAITING_PREFIX + job.name(), job.lockAtMostFor().plus(properties.lockWaitMargin()));
                if (waiting.isEmpty()) {
                    log.info("previous fire still running and another instant waiting, instant skipped job={} "
                            + "scheduledAt={} running={}", job.name(), scheduledAt, other.get().instant());
                    return Acquired.skipped(name);
                }
            }
            try {
                lock = awaitLock(job, name, scheduledAt);
            } finally {
                waiting.ifPresent(SimpleLock::unlock);
            }
        }
        return lock.map(taken -> new Acquired(held(job, name, scheduledAt, lockedBy, taken), false, null))
                .orElse(Acquired.BUSY);
    }

    private Held held(PeriodicJob job, String name, Instant scheduledAt, String holder, SimpleLock lock) {
        Optional<String> lockedAt = table.claim(name, holder);
        boolean perInstant = job.overlapPolicy() == OverlapPolicy.ALLOW;
        return () -> {
            try {
                if (lockedAt.isEmpty()) {
                    lock.unlock();
                } else if (!table.release(name, lockedAt.get(), perInstant)) {
                    log.warn("lock outlived lockAtMostFor, left to its new holder job={} scheduledAt={} "
                            + "lockAtMostFor={}", job.name(), scheduledAt, job.lockAtMostFor());
                }
            } catch (RuntimeException e) {
                // the fire is over either way; the row frees itself at lockAtMostFor
                log.warn("could not release the lock, it expires by itself job={} scheduledAt={} lockAtMostFor={} "
                        + "error={}", job.name(), scheduledAt, job.lockAtMostFor(), e.toString());
            }
        };
    }

    private Optional<SimpleLock> tryLock(String name, Duration atMost) {
        return locks.lock(new LockConfiguration(clock.instant(), name, atMost, Duration.ZERO));
    }

    private Optional<SimpleLock> awaitLock(PeriodicJob job, String name, Instant scheduledAt) {
        Duration atMost = job.lockAtMostFor();
        Instant deadline = clock.instant().plus(atMost).plus(properties.lockWaitMargin());
        // the oldest waiting instant goes first: a recovery or a retry of an earlier instant, which a crash or a
        // failure made late, would otherwise lose every gap between fires to the later instants polling beside it
        // and give up (seen with a job busy 75 % of its period). A fire that finds the lock free takes it at once
        String next = NEXT_PREFIX + name.substring(PREFIX.length());
        log.info("lock busy, waiting job={} scheduledAt={} until={}", job.name(), scheduledAt, deadline);
        table.standNext(next, scheduledAt, Duration.between(clock.instant(), deadline));
        try {
            while (true) {
                if (!Pauses.sleep(properties.lockPollInterval())) {
                    return Optional.empty();
                }
                // standing again refreshes this waiter's row, or finds an older instant's
                if (table.standNext(next, scheduledAt, Duration.between(clock.instant(), deadline))) {
                    Optional<SimpleLock> lock = tryLock(name, atMost);
                    if (lock.isPresent()) {
                        log.info("lock acquired after waiting job={} scheduledAt={}", job.name(), scheduledAt);
                        return lock;
                    }
                }
                if (!clock.instant().isBefore(deadline)) {
                    return Optional.empty();
                }
            }
        } finally {
            try {
                table.leaveNext(next, scheduledAt);
            } catch (RuntimeException e) {
                // the row expires by itself at this waiter's deadline
                log.warn("could not leave the next-waiter row job={} scheduledAt={} error={}", job.name(),
                        scheduledAt, e.toString());
            }
        }
    }
}
