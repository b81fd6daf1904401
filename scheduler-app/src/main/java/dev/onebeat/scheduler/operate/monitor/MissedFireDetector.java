package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Runs the checks of the missed-fire detector ({@link MonitorCheck}) every {@code onebeat.monitor.check-interval},
 * on one replica at a time: each replica tries the ShedLock lock {@value #LOCK} (database time), held at least most
 * of an interval so that the others skip that round. A replica that dies mid-check leaves the lock to expire after
 * {@link #lockAtMostFor}; the next check starts where the last committed one stopped. Every replica refreshes the
 * per-job gauges from the detector's progress after its turn, whoever ran the check.
 */
@Component
class MissedFireDetector implements ApplicationContextAware, DisposableBean {

    static final String LOCK = "onebeat-monitor";
    /**
     * How long a shutdown waits for a check under way to end (a check sweeps at most {@code sweep-jobs} jobs): ended by
     * itself, it commits or rolls back and releases its lock. Cut off by the pool's close, it would leave the lock
     * held until {@link #lockAtMostFor} (5 minutes or more), and no replica would check until then.
     */
    static final Duration STOP_WAIT = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(MissedFireDetector.class);

    private final MonitorCheck check;
    private final MonitorTable table;
    private final InstantRecords records;
    private final MonitorMetrics metrics;
    private final LockProvider locks;
    private final ClusterState cluster;
    private final Clock clock;
    private final MonitorProperties properties;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-monitor");
        daemon.setDaemon(true);
        return daemon;
    });
    private ApplicationContext context;

    MissedFireDetector(MonitorCheck check, MonitorTable table, InstantRecords records, MonitorMetrics metrics,
                       LockProvider locks, ClusterState cluster, Clock clock, MonitorProperties properties) {
        this.records = records;
        this.check = check;
        this.table = table;
        this.metrics = metrics;
        this.locks = locks;
        this.cluster = cluster;
        this.clock = clock;
        this.properties = properties;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /** Starts once the replica is up: its jobs registered and stored in the catalog. */
    @EventListener(ApplicationReadyEvent.class)
    void startChecks() {
        if (!properties.enabled()) {
            log.info("missed-fire detector off on this replica (onebeat.monitor.enabled=false)");
            return;
        }
        long every = properties.checkInterval().toMillis();
        try {
            thread.scheduleWithFixedDelay(this::turn, every, every, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // a shutdown began while the replica was starting
            log.info("missed-fire detector not started: the replica is shutting down");
        }
    }

    private void turn() {
        try {
            checkIfFree();
            metrics.refresh(table, records.databaseNow());
        } catch (MonitorCheck.Stopped e) {
            log.info("{}; the next check goes on from the last committed one", e.getMessage());
        } catch (RuntimeException e) {
            // the database away: the next turn tries again, from where the last committed check stopped
            log.warn("missed-fire check failed, the next one goes on from the last committed check error={}",
                    e.toString());
        }
    }

    /** @return what the check did, if this replica had the lock */
    Optional<MonitorCheck.Result> checkIfFree() {
        Instant now = clock.instant();
        Duration interval = properties.checkInterval();
        Optional<SimpleLock> lock = locks.lock(new LockConfiguration(now, LOCK, lockAtMostFor(interval),
                interval.multipliedBy(3).dividedBy(4)));
        if (lock.isEmpty()) {
            return Optional.empty();
        }
        try {
            // judged in database time, as fires are locked and replicas found alive: a replica's clock ahead would
            // report instants missed before their grace ended
            Instant databaseNow = records.databaseNow();
            MonitorCheck.Result result = check.run(databaseNow, cluster.selfId());
            metrics.checked(databaseNow, result.took());
            for (MonitorTable.Event event : result.events()) {
                if (event.kind().equals("recovered")) {
                    log.info("job recovered job={} scheduledAt={} reason={}", event.job(), event.instant(), event.reason());
                } else {
                    log.warn("instant {} job={} scheduledAt={} reason={} alerted={}", event.kind(), event.job(),
                            event.instant(), event.reason(), event.alerted());
                }
            }
            log.debug("missed-fire check jobs={} judged={} events={} durationMs={}", result.jobs(), result.judged(),
                    result.events().size(), result.took().toMillis());
            return Optional.of(result);
        } finally {
            lock.get().unlock();
        }
    }

    private static Duration lockAtMostFor(Duration interval) {
        Duration tenIntervals = interval.multipliedBy(10);
        return tenIntervals.compareTo(Duration.ofMinutes(5)) > 0 ? tenIntervals : Duration.ofMinutes(5);
    }

    /**
     * Starts no more checks and ends the one under way at its next checkpoint (it writes nothing and releases its
     * lock) as the shutdown begins, while the replica's fires and relay finish; {@link #destroy} waits for it.
     */
    @EventListener
    void shutdownBegins(ContextClosedEvent closed) {
        if (closed.getApplicationContext() == context) {
            check.stop();
            thread.shutdown();
        }
    }

    /**
     * Starts no more checks, ends the one under way at its next checkpoint (it writes nothing and releases its lock),
     * and waits for that up to {@link #STOP_WAIT}.
     */
    @Override
    public void destroy() {
        check.stop();
        thread.shutdown();
        try {
            if (!thread.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("missed-fire check still running after the shutdown began, cut off: its lock is released when "
                        + "it expires waitedMs={} lock={}", STOP_WAIT.toMillis(), LOCK);
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.shutdownNow();
        }
    }
}
