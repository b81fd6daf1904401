package dev.onebeat.scheduler.cluster;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.quartz.JobPersistenceException;
import org.quartz.SchedulerConfigException;
import org.quartz.impl.jdbcjobstore.SchedulerStateRecord;
import org.quartz.spi.ClassLoadHelper;
import org.quartz.spi.SchedulerSignaler;
import org.springframework.scheduling.quartz.LocalDataSourceJobStore;

/**
 * Spring's data-source job store with a configurable failure grace.
 *
 * <p>Quartz declares a replica dead once its last check-in is older than its check-in interval
 * plus a hard-coded 7.5 s, so a survivor takes over 9–10 s after a crash even with a 1 s interval.
 * Here the grace is {@code org.quartz.jobStore.failureGraceMillis}. A grace short enough to
 * misjudge a live but paused replica is safe in onebeat: the job lock and the fire ledger stop the
 * second fire that such a recovery could start.
 *
 * <p>A peer's check-in is judged by the database's clock ({@link CheckinAges}), not by the time the peer wrote from
 * its own clock, so a replica whose clock is off neither declares its healthy peers dead nor is declared dead itself.
 *
 * <p>Each failure of the store's own work (acquiring triggers, marking them fired, completing a fire) is told to the
 * scheduler's listeners as {@link #STORE_FAULT}, every time: Quartz itself tells only the first of a run of failed
 * acquisitions, and nobody which instants did not fire meanwhile.
 */
public class OnebeatJobStore extends LocalDataSourceJobStore {

    /** The message of the scheduler error sent for each failure of the store's work. */
    public static final String STORE_FAULT = "onebeat job store: could not reach the database";

    private long failureGraceMillis = 7_500;
    private SchedulerSignaler signaler;
    private volatile CheckinAges checkinAges = CheckinAges.NONE;

    /** @param failureGraceMillis time past a missed check-in before a replica is declared dead */
    public void setFailureGraceMillis(long failureGraceMillis) {
        if (failureGraceMillis < 0) {
            throw new IllegalArgumentException("failureGraceMillis must not be negative, was " + failureGraceMillis);
        }
        this.failureGraceMillis = failureGraceMillis;
    }

    @Override
    protected List<SchedulerStateRecord> findFailedInstances(Connection conn) throws JobPersistenceException {
        try {
            checkinAges = CheckinAges.read(conn, tablePrefix, getInstanceName());
        } catch (SQLException e) {
            throw new JobPersistenceException("could not read the database's check-in stamps: " + e.getMessage(), e);
        }
        return super.findFailedInstances(conn);
    }

    @Override
    protected long calcFailedIfAfter(SchedulerStateRecord rec) {
        long sinceOwnCheckin = System.currentTimeMillis() - lastCheckin;
        return checkinAges.checkinOnOwnClock(rec) + Math.max(rec.getCheckinInterval(), sinceOwnCheckin)
                + failureGraceMillis;
    }

    @Override
    public void initialize(ClassLoadHelper loadHelper, SchedulerSignaler signaler) throws SchedulerConfigException {
        this.signaler = signaler;
        super.initialize(loadHelper, signaler);
    }

    @Override
    protected <T> T executeInNonManagedTXLock(String lockName, TransactionCallback<T> txCallback,
                                              TransactionValidator<T> txValidator) throws JobPersistenceException {
        try {
            return super.executeInNonManagedTXLock(lockName, txCallback, txValidator);
        } catch (JobPersistenceException e) {
            signaler.notifySchedulerListenersError(STORE_FAULT, e);
            throw e;
        }
    }
}
