package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
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
class MissedFireDetector implements DisposableBean {

    static final String LOCK = "onebeat-monitor";
    /**
     * Fires committed per second from which a check waits for them to end: a large instant's batches (tens of
     * thousands a second), not the steady rate of a busy cluster.
     */
    static final int BURST_FIRES_PER_SECOND = 2_000;
    /** How often a check waiting for a burst looks at the ledger again. */
    static final Duration PROBE = Duration.ofSeconds(1);
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

    /** Starts once the replica is up: its jobs registered and stored in the catalog. */
    @EventListener(ApplicationReadyEvent.class)
    void start() {
        if (!properties.enabled()) {
            log.info("missed-fire detector off on this replica (onebeat.monitor.enabled=false)");
            return;
        }
        long every = properties.checkInterval().toMillis();
        thread.scheduleWithFixedDelay(this::turn, every, every, TimeUnit.MILLISECONDS);
    }

    private void turn() {
        try {
            checkIfFree();
            metrics.refresh(table, records.databaseNow());
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
            int probes = yieldToBursts();
            if (probes > 1) {
                log.debug("missed-fire check waited for a burst of fires to commit probes={} of {} ms", probes,
                        PROBE.toMillis());
            }
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

    /**
     * Waits while fires are being committed in a burst (faster than {@link #BURST_FIRES_PER_SECOND}), for one check
     * interval at most. A check judges every job with a fire written since the last one, reading its ledger rows and
     * writing its progress: inside an instant of 100,000 jobs that was up to 4.9 s of the database's statement time,
     * taken from the fires still to commit (BENCHMARKS, 7 December). Judged once the burst has committed, those fires
     * are judged a few seconds later and their outcomes do not change; a miss is reported one interval later at most.
     *
     * @return how many times the ledger was looked at again: 1 when no burst was under way
     */
    int yieldToBursts() {
        long perProbe = Math.max(1, BURST_FIRES_PER_SECOND * PROBE.toMillis() / 1000);
        long giveUp = System.nanoTime() + properties.checkInterval().toNanos();
        long before = records.ledgerMark().fire();
        int probes = 0;
        while (true) {
            probes++;
            try {
                Thread.sleep(PROBE.toMillis());
            } catch (InterruptedException e) {
                // the replica stops
                Thread.currentThread().interrupt();
                return probes;
            }
            long after = records.ledgerMark().fire();
            if (after - before < perProbe || System.nanoTime() - giveUp >= 0) {
                return probes;
            }
            before = after;
        }
    }

    private static Duration lockAtMostFor(Duration interval) {
        Duration tenIntervals = interval.multipliedBy(10);
        return tenIntervals.compareTo(Duration.ofMinutes(5)) > 0 ? tenIntervals : Duration.ofMinutes(5);
    }

    @Override
    public void destroy() {
        thread.shutdownNow();
    }
}
