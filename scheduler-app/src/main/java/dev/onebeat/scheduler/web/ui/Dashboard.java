package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.fire.FireLedger;
import dev.onebeat.scheduler.engine.fire.FireRecord;
import dev.onebeat.scheduler.engine.outbox.TaskTable;
import dev.onebeat.scheduler.engine.registry.NamespaceJobs;
import dev.onebeat.scheduler.operate.monitor.MonitorTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    private final NamespaceJobs namespaces;
    /** How many fires and events the page lists. */
    private static final int LISTED = 10;

    Dashboard(ClusterState cluster, MeterRegistry meters, FireLedger ledger, MonitorTable monitor,
              Clock clock, TaskTable outbox, NamespaceJobs namespaces) {
        this.namespaces = namespaces;
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

    /**
     * @param scope the namespaces whose jobs' fires, misses and events are listed, null for all; the figures
     *     (fires, tasks, lag) are the cluster's
     */
    View read(Set<String> scope) {
        FireLedger.LastHour hour = ledger.lastHour();
        Map<String, Long> tasks = new LinkedHashMap<>();
        for (String status : List.of("pending", "claimed", "failed", "dead")) {
            tasks.put(status, 0L);
        }
        tasks.putAll(outbox.countUnfinishedByStatus());
        // a user of some namespaces: the latest of theirs among the latest of all, so the page stays one read
        int read = scope == null ? LISTED : LISTED * 20;
        List<FireRecord> recent = ledger.latest(read);
        Map<String, Integer> misses = monitor.missesSince(clock.instant().minus(Duration.ofDays(1)));
        List<MonitorTable.Event> events = monitor.latest(read);
        if (scope != null) {
            List<String> named = new ArrayList<>();
            recent.forEach(fire -> named.add(fire.job()));
            named.addAll(misses.keySet());
            events.forEach(event -> named.add(event.job()));
            Map<String, String> owners = namespaces.namespacesOf(named.stream().distinct().toList());
            recent = recent.stream().filter(fire -> theirs(scope, owners, fire.job())).limit(LISTED).toList();
            Map<String, Integer> scoped = new LinkedHashMap<>();
            misses.forEach((job, count) -> {
                if (theirs(scope, owners, job)) {
                    scoped.put(job, count);
                }
            });
            misses = scoped;
            events = events.stream().filter(event -> theirs(scope, owners, event.job())).limit(LISTED).toList();
        }
        return new View(cluster.nodes(), hour.fires(), hour.tasks(), hour.lagAverage(), hour.lagMax(),
                duplicates(), tasks, recent, misses, events);
    }

    /** @return whether the job is of one of the namespaces; a job gone from the catalog is of none */
    private static boolean theirs(Set<String> scope, Map<String, String> owners, String job) {
        String namespace = owners.get(job);
        return namespace != null && scope.contains(namespace);
    }

    private long duplicates() {
        return Math.round(meters.find("onebeat.fires").tag("outcome", "duplicate").counters().stream()
                .mapToDouble(Counter::count).sum());
    }
}
