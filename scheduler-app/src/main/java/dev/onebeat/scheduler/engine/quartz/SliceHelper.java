package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.FireProperties;
import dev.onebeat.scheduler.engine.fire.ScheduleFire;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.context.LifecycleProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * This replica's part in the large instants other replicas acquire: a thread that looks for a free slice every
 * {@code onebeat.fire.share.poll-interval} and, while it finds them, claims and fires one after another
 * ({@link ScheduleFire#helpWithSlice}). It helps only while this replica's Quartz scheduler takes fires: not in
 * standby (a clock out of step, {@code spring.quartz.auto-startup=false}, a shutdown begun). Jobs of a slice this
 * replica does not register are handed back to the cluster for the slice's instant, as a schedule's fire hands them
 * back. A replica whose {@code onebeat.fire.share.min-jobs} is 0 (the default) does not look at all.
 *
 * <p>At shutdown it stops after Quartz's standby and before the wait for running fires, finishing the slice it fires.
 */
@Component
class SliceHelper implements SmartLifecycle {

    /** After Quartz's standby (the default phase), before {@link RunningFiresAtShutdown#PHASE}. */
    static final int PHASE = DEFAULT_PHASE - 256;

    private static final Logger log = LoggerFactory.getLogger(SliceHelper.class);
    private static final Duration QUIET_FAILURES = Duration.ofMinutes(1);

    private final ScheduleFire fire;
    private final Scheduler scheduler;
    private final TransactionTemplate transactions;
    private final Duration pollInterval;
    private final boolean sharing;
    private final Duration stopTimeout;
    private final Clock clock;
    private final Object wake = new Object();
    private volatile boolean running;
    private volatile Thread thread;
    private Instant lastFailureLogged = Instant.MIN;

    SliceHelper(ScheduleFire fire, Scheduler scheduler, TransactionTemplate transactions, FireProperties properties,
                LifecycleProperties lifecycle, Clock clock) {
        this.fire = fire;
        this.scheduler = scheduler;
        this.transactions = transactions;
        this.pollInterval = properties.share().pollInterval();
        this.sharing = properties.share().minJobs() > 0;
        this.stopTimeout = lifecycle.getTimeoutPerShutdownPhase();
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        running = true;
        if (!sharing) {
            // sharing is off here (the default), as on the replicas configured alike: no slice to look for
            return;
        }
        thread = new Thread(this::run, "onebeat-slices");
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs until this thread is no longer the helper: one outliving a stop's wait ends instead of joining the next. */
    private void run() {
        while (thread == Thread.currentThread()) {
            boolean helped = false;
            try {
                helped = helpOnce();
            } catch (SQLException | RuntimeException e) {
                failed(e);
            }
            if (!helped) {
                synchronized (wake) {
                    if (thread == Thread.currentThread()) {
                        try {
                            wake.wait(pollInterval.toMillis());
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }
        }
    }

    private boolean helpOnce() throws SQLException {
        String node;
        try {
            if (scheduler.isInStandbyMode() || scheduler.isShutdown()) {
                return false;
            }
            node = scheduler.getSchedulerInstanceId();
        } catch (SchedulerException e) {
            return false;
        }
        // handed back before the slice is marked fired: a replica dying between the two fires them once more, at worst
        return fire.helpWithSlice(node, (scheduledAt, jobs) -> QuartzWork.inTransaction(transactions, () -> {
            HandBack.toCluster(scheduler, jobs, scheduledAt, clock);
            return null;
        }));
    }

    private void failed(Exception e) {
        // a database out of reach fails every look: one line a minute says so
        Instant now = clock.instant();
        if (now.isAfter(lastFailureLogged.plus(QUIET_FAILURES))) {
            lastFailureLogged = now;
            log.warn("could not look for slices of shared instants, trying again every {} ms error={}",
                    pollInterval.toMillis(), e.toString());
        } else {
            log.debug("could not look for slices of shared instants error={}", e.toString());
        }
    }

    @Override
    public void stop() {
        // before the wait below: the instants this replica fires claim no new slice from now on either
        fire.stopSharing();
        Thread running;
        synchronized (this) {
            this.running = false;
            running = thread;
            thread = null;
        }
        synchronized (wake) {
            wake.notifyAll();
        }
        if (running != null) {
            try {
                // the slice it fires ends here: cut short, another replica would fire it again
                running.join(stopTimeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
