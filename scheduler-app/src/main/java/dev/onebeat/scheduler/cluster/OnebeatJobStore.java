package dev.onebeat.scheduler.cluster;

import org.quartz.impl.jdbcjobstore.SchedulerStateRecord;
import org.springframework.scheduling.quartz.LocalDataSourceJobStore;

/**
 * Spring's data-source job store with a configurable failure grace.
 *
 * <p>Quartz declares a replica dead once its last check-in is older than its check-in interval
 * plus a hard-coded 7.5 s, so a survivor takes over 9–10 s after a crash even with a 1 s interval.
 * Here the grace is {@code org.quartz.jobStore.failureGraceMillis}. A grace short enough to
 * misjudge a live but paused replica is safe in onebeat: the job lock and the fire ledger stop the
 * second fire that such a recovery could start.
 */
public class OnebeatJobStore extends LocalDataSourceJobStore {

    private long failureGraceMillis = 7_500;

    /** @param failureGraceMillis time past a missed check-in before a replica is declared dead */
    public void setFailureGraceMillis(long failureGraceMillis) {
        if (failureGraceMillis < 0) {
            throw new IllegalArgumentException("failureGraceMillis must not be negative, was " + failureGraceMillis);
        }
        this.failureGraceMillis = failureGraceMillis;
    }

    @Override
    protected long calcFailedIfAfter(SchedulerStateRecord rec) {
        long sinceOwnCheckin = System.currentTimeMillis() - lastCheckin;
        return rec.getCheckinTimestamp() + Math.max(rec.getCheckinInterval(), sinceOwnCheckin) + failureGraceMillis;
    }
}
