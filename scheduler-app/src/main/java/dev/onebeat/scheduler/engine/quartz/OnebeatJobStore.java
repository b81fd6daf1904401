package dev.onebeat.scheduler.engine.quartz;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.quartz.JobKey;
import org.quartz.JobPersistenceException;
import org.quartz.Scheduler;
import org.quartz.SchedulerConfigException;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.Constants;
import org.quartz.impl.jdbcjobstore.FiredTriggerRecord;
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
 *
 * <p>It also recovers this live replica's own stranded fire records ({@link #recoverStranded}), which Quartz
 * recovers only for replicas it declares dead.
 */
public class OnebeatJobStore extends LocalDataSourceJobStore {

    /**
     * The message of the scheduler error sent for each failure of the store's work, which Quartz logs at ERROR with the
     * failure: the database out of reach, or a wait for Quartz's lock past {@code lock_timeout} while another session
     * held it (the cause says which; {@code FireFaults} names it by its SQLSTATE).
     */
    public static final String STORE_FAULT = "onebeat job store: acquiring, firing or completing triggers failed in "
            + "the database";

    private static final Map<String, OnebeatJobStore> STARTED = new ConcurrentHashMap<>();

    private long failureGraceMillis = 7_500;
    private SchedulerSignaler signaler;
    private volatile CheckinAges checkinAges = CheckinAges.NONE;

    /**
     * The store of a started scheduler: Quartz gives no way from a {@link Scheduler} to its job store.
     *
     * @throws IllegalStateException if the scheduler has no started store of this class
     */
    public static OnebeatJobStore of(Scheduler scheduler) {
        try {
            String key = scheduler.getSchedulerName() + "/" + scheduler.getSchedulerInstanceId();
            OnebeatJobStore store = STARTED.get(key);
            if (store == null) {
                throw new IllegalStateException("scheduler " + scheduler.getSchedulerName() + " has no started "
                        + OnebeatJobStore.class.getSimpleName());
            }
            return store;
        } catch (SchedulerException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** @return time past a missed check-in before a replica is declared dead */
    public long getFailureGraceMillis() {
        return failureGraceMillis;
    }

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
        // rows written by earlier versions name the job classes by their old package
        super.initialize(new StoredJobClasses(loadHelper), signaler);
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

    @Override
    public void schedulerStarted() throws SchedulerException {
        super.schedulerStarted();
        STARTED.put(getInstanceName() + "/" + getInstanceId(), this);
    }

    @Override
    public void shutdown() {
        STARTED.remove(getInstanceName() + "/" + getInstanceId(), this);
        super.shutdown();
    }

    /**
     * Gives back to the cluster the triggers held by fire records of this replica that no thread of it runs: after a
     * failover the new primary may hold records of fires this replica completed on the old one (or acquired there and
     * never fired), and Quartz recovers the records of dead replicas only, so their triggers would stay ACQUIRED or
     * BLOCKED for ever (quartz#1516). Done as Quartz's own cluster recovery does it, under its TRIGGER_ACCESS lock:
     * ACQUIRED and BLOCKED back to WAITING, PAUSED_BLOCKED back to PAUSED, the record deleted. A record is stranded
     * only when its fire is not running here and it is older than {@code olderThanMillis} (by fire time, and by
     * scheduled time for a trigger acquired ahead of it), so that a fire between being marked fired and starting on
     * a thread is never touched. No recovery trigger is made: a fire whose commit was lost is fired again from the
     * ledger ({@code FailoverRecovery}), not from Quartz's record.
     *
     * @param running the fire instance ids of the fires this replica runs now
     * @return how many records were recovered
     */
    public int recoverStranded(Set<String> running, long olderThanMillis) throws JobPersistenceException {
        long before = System.currentTimeMillis() - olderThanMillis;
        // read first without the lock: nearly always there is nothing, and the lock stalls every acquisition; not
        // told to the listeners as a store fault when the database is away: no fire depends on this sweep
        if (super.executeInNonManagedTXLock(null, connection -> stranded(connection, running, before), null)
                .isEmpty()) {
            return 0;
        }
        return super.executeInNonManagedTXLock(LOCK_TRIGGER_ACCESS, connection -> {
            List<FiredTriggerRecord> stranded = stranded(connection, running, before);
            try {
                // a job with a fire running here keeps its other triggers blocked until that fire completes
                Set<JobKey> busy = own(connection).stream()
                        .filter(record -> running.contains(record.getFireInstanceId()))
                        .map(FiredTriggerRecord::getJobKey).collect(Collectors.toSet());
                for (FiredTriggerRecord record : stranded) {
                    release(connection, record, busy.contains(record.getJobKey()));
                }
            } catch (SQLException e) {
                throw new JobPersistenceException("could not recover stranded fire records: " + e.getMessage(), e);
            }
            return stranded.size();
        }, null);
    }

    private List<FiredTriggerRecord> stranded(Connection connection, Set<String> running, long before)
            throws JobPersistenceException {
        return own(connection).stream()
                .filter(record -> !running.contains(record.getFireInstanceId()))
                .filter(record -> Math.max(record.getFireTimestamp(), record.getScheduleTimestamp()) < before)
                .toList();
    }

    private List<FiredTriggerRecord> own(Connection connection) throws JobPersistenceException {
        try {
            return getDelegate().selectInstancesFiredTriggerRecords(connection, getInstanceId());
        } catch (SQLException e) {
            throw new JobPersistenceException("could not read fire records of instance " + getInstanceId() + ": "
                    + e.getMessage(), e);
        }
    }

    private void release(Connection connection, FiredTriggerRecord record, boolean jobBusy) throws SQLException,
            JobPersistenceException {
        String state = record.getFireInstanceState();
        if (Constants.STATE_ACQUIRED.equals(state)) {
            getDelegate().updateTriggerStateFromOtherState(connection, record.getTriggerKey(), Constants.STATE_WAITING,
                    Constants.STATE_ACQUIRED);
        }
        if (!jobBusy && (Constants.STATE_BLOCKED.equals(state) || record.isJobDisallowsConcurrentExecution())) {
            getDelegate().updateTriggerStatesForJobFromOtherState(connection, record.getJobKey(),
                    Constants.STATE_WAITING, Constants.STATE_BLOCKED);
            getDelegate().updateTriggerStatesForJobFromOtherState(connection, record.getJobKey(),
                    Constants.STATE_PAUSED, Constants.STATE_PAUSED_BLOCKED);
        }
        getDelegate().deleteFiredTrigger(connection, record.getFireInstanceId());
        // a one-shot trigger whose fire was under way (a hand-back, a manual run) is COMPLETE until that fire completes
        // and deletes it: with its last record gone, nothing would, and it would stand for ever for fires that never
        // committed (a look for lost fires takes it as handed back already). Removed as Quartz's own cluster recovery
        // removes the COMPLETE triggers of a dead replica's records
        TriggerKey trigger = record.getTriggerKey();
        if (Constants.STATE_COMPLETE.equals(getDelegate().selectTriggerState(connection, trigger))
                && getDelegate().selectFiredTriggerRecords(connection, trigger.getName(), trigger.getGroup()).isEmpty()) {
            removeTrigger(connection, trigger);
        }
    }
}
