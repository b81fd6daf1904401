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
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * What the dashboard shows, read from what the scheduler records: Quartz's cluster state, the fire
 * ledger, the outbox and this replica's counters. Nothing is kept here.
 */
@Component
class Dashboard {

    private final ClusterState cluster;
    private final JdbcClient jdbc;
    private final MeterRegistry meters;
    private final FireLedger ledger;
    private final MonitorTable monitor;
    private final Clock clock;
    private final TaskTable outbox;

    Dashboard(ClusterState cluster, JdbcClient jdbc, MeterRegistry meters, FireLedger ledger, MonitorTable monitor,
              Clock clock, TaskTable outbox) {
        this.outbox = outbox;
        this.monitor = monitor;
        this.clock = clock;
        this.ledger = ledger;
        this.cluster = cluster;
        this.jdbc = jdbc;
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
        Map<String, Object> hour = jdbc.sql("""
                        SELECT count(*) AS fires, coalesce(sum(task_count), 0) AS tasks,
                               coalesce(avg(extract(epoch FROM fired_at - scheduled_at)) * 1000, 0) AS lag_avg,
                               coalesce(max(extract(epoch FROM fired_at - scheduled_at)) * 1000, 0) AS lag_max
                        FROM onebeat_fire WHERE fired_at > now() - interval '1 hour'
                        """).query().singleRow();
        Map<String, Long> tasks = new LinkedHashMap<>();
        for (String status : List.of("pending", "claimed", "failed", "dead")) {
            tasks.put(status, 0L);
        }
        tasks.putAll(outbox.countUnfinishedByStatus());
        List<FireRecord> recent = ledger.latest(10);
        return new View(cluster.nodes(), number(hour.get("fires")), number(hour.get("tasks")),
                Duration.ofMillis(number(hour.get("lag_avg"))), Duration.ofMillis(number(hour.get("lag_max"))),
                duplicates(), tasks, recent, monitor.missesSince(clock.instant().minus(Duration.ofDays(1))),
                monitor.latest(10));
    }

    private long duplicates() {
        return Math.round(meters.find("onebeat.fires").tag("outcome", "duplicate").counters().stream()
                .mapToDouble(Counter::count).sum());
    }

    private static long number(Object value) {
        return value == null ? 0 : Math.round(((Number) value).doubleValue());
    }
}
