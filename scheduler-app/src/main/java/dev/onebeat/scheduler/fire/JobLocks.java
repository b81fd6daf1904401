package dev.onebeat.scheduler.fire;

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
 * The cluster-wide lock {@code onebeat:<job>} every fire holds (ShedLock, database time).
 *
 * <p>A busy lock is waited for rather than skipped: the holder may be a fire of another scheduled
 * instant (a recovery racing the schedule), and skipping would lose this instant. The wait is
 * bounded by the job's {@code lockAtMostFor} plus a margin, which also covers a lock left behind by
 * a replica that died mid-fire.
 *
 * <p>ShedLock's own unlock releases the row whoever holds it now; a fire that outlived its
 * {@code lockAtMostFor} would release the lock of the fire that took it over. The release here is
 * fenced on the {@code locked_at} this fire's lock was taken at ({@link JobLockTable#release}).
 */
@Component
class JobLocks {

    private static final Logger log = LoggerFactory.getLogger(JobLocks.class);
    static final String PREFIX = "onebeat:";

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

    Optional<Held> acquire(PeriodicJob job, Instant scheduledAt) {
        return acquireLock(job, scheduledAt).map(lock -> {
            Optional<String> lockedAt = table.lockedAt(job.name());
            return () -> {
                if (lockedAt.isEmpty()) {
                    lock.unlock();
                } else if (!table.release(job.name(), lockedAt.get())) {
                    log.warn("lock outlived lockAtMostFor, left to its new holder job={} scheduledAt={} "
                            + "lockAtMostFor={}", job.name(), scheduledAt, job.lockAtMostFor());
                }
            };
        });
    }

    private Optional<SimpleLock> acquireLock(PeriodicJob job, Instant scheduledAt) {
        Duration atMost = job.lockAtMostFor();
        Instant deadline = clock.instant().plus(atMost).plus(properties.lockWaitMargin());
        boolean waited = false;
        while (true) {
            Optional<SimpleLock> lock = locks.lock(new LockConfiguration(clock.instant(), PREFIX + job.name(), atMost,
                    Duration.ZERO));
            if (lock.isPresent()) {
                if (waited) {
                    log.info("lock acquired after waiting job={} scheduledAt={}", job.name(), scheduledAt);
                }
                return lock;
            }
            if (!clock.instant().isBefore(deadline)) {
                return Optional.empty();
            }
            if (!waited) {
                log.info("lock busy, waiting job={} scheduledAt={} until={}", job.name(), scheduledAt, deadline);
                waited = true;
            }
            try {
                Thread.sleep(properties.lockPollInterval().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }
}
