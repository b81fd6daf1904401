package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.fire.FireLedger;
import dev.onebeat.scheduler.engine.fire.FireRecord;
import dev.onebeat.scheduler.engine.outbox.TaskTable;
import dev.onebeat.scheduler.operate.monitor.MonitorTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * What the dashboard shows, read from what the scheduler records: Quartz's cluster state, the fire
 * ledger, the outbox and this replica's counters. Nothing is kept here.
 */
@Component
class Dashboard {

    private final ClusterState cluster;
    private final MeterRegistry meters;
    private final FireLedger ledger;
    private final MonitorTable monitor;
    private final Clock clock;
    private final TaskTable outbox;

    Dashboard(ClusterState cluster, MeterRegistry meters, FireLedger ledger, MonitorTable monitor,
              Clock clock, TaskTable outbox) {
        this.outbox = outbox;
        this.monitor = monitor;
        this.clock = clock;
        this.ledger = ledger;
        this.cluster = cluster;
        this.meters = meters;
    }

    /**
     * The dashboard's figures.
     *
     * @param nodes the replicas that checked in
     * @param firesLastHour committed fires whose start lies in the last hour
     * @param tasksLastHour tasks those fires dispatched
     * @param lagAverage average start lag (fired minus scheduled) of those fires
     * @param lagMax the largest
     * @param duplicatesSuppressed duplicate fires this replica suppressed since it started
     * @param tasksByStatus outbox rows waiting or needing attention, by status
     * @param recentFires the latest fires of any job
     * @param missesLastDay per job with instants missed in the last 24 hours, how many, the most first
     * @param latestEvents the detector's latest missed, failed and recovered events
     */
    record View(List<ClusterState.Node> nodes, long firesLastHour, long tasksLastHour, Duration lagAverage,
                Duration lagMax, long duplicatesSuppressed, Map<String, Long> tasksByStatus,
                List<FireRecord> recentFires, Map<String, Integer> missesLastDay, List<MonitorTable.Event> latestEvents) {
    }

    View read() {
        FireLedger.LastHour hour = ledger.lastHour();
        Map<String, Long> tasks = new LinkedHashMap<>();
        for (String status : List.of("pending", "claimed", "failed", "dead")) {
            tasks.put(status, 0L);
        }
        tasks.putAll(outbox.countUnfinishedByStatus());
        List<FireRecord> recent = ledger.latest(10);
        return new View(cluster.nodes(), hour.fires(), hour.tasks(), hour.lagAverage(), hour.lagMax(),
                duplicates(), tasks, recent, monitor.missesSince(clock.instant().minus(Duration.ofDays(1))),
                monitor.latest(10));
    }

    private long duplicates() {
        return Math.round(meters.find("onebeat.fires").tag("outcome", "duplicate").counters().stream()
                .mapToDouble(Counter::count).sum());
    }
}
