package dev.onebeat.scheduler.engine.cluster;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Records this replica's time-zone data and Java versions in {@code onebeat_node} at start-up, logs them
 * ({@code tzdata version=2025a ...}), and warns when a live replica (one in Quartz's cluster table, as
 * {@code GET /api/cluster} lists them) runs other tzdata: replicas on different versions can disagree on
 * the instants of a cron in a zone whose rules changed between them, so one replica would fire a time
 * the other never computes. The warning is given once, by the replica that starts second; both
 * versions and instances are named.
 *
 * <p>While running, the replica marks its row seen every {@link #SEEN_EVERY} (whether it is alive is judged from
 * its Quartz check-ins, {@link LiveNodes}, not from this row); at start-up the rows of
 * replicas not seen for {@link #FORGET_AFTER} are deleted, so the table keeps one row per replica
 * started recently (Quartz's automatic instance ids are new at each start).
 */
@Component
class TzdataCheck implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TzdataCheck.class);
    static final Duration SEEN_EVERY = Duration.ofMinutes(1);
    static final Duration FORGET_AFTER = Duration.ofDays(1);

    private final NodeTable nodes;
    private final ClusterState cluster;
    private final String tzdata;
    private final String javaVersion;
    private ScheduledExecutorService executor;

    TzdataCheck(NodeTable nodes, ClusterState cluster) {
        this.nodes = nodes;
        this.cluster = cluster;
        this.tzdata = Tzdata.version();
        this.javaVersion = Runtime.version().toString();
    }

    /** Records this replica, forgets long-gone ones, then compares tzdata with the live replicas. */
    void checkAtStartup() {
        String self = cluster.selfId();
        nodes.started(self, tzdata, javaVersion);
        int forgotten = nodes.forgetUnseenFor(FORGET_AFTER);
        log.info("tzdata version={} java={} instance={} forgottenReplicas={}", tzdata, javaVersion, self, forgotten);
        List<ClusterState.Node> differing = cluster.nodes().stream()
                .filter(node -> !node.instanceId().equals(self) && node.tzdata() != null
                        && !node.tzdata().equals(tzdata))
                .toList();
        if (!differing.isEmpty()) {
            log.warn("tzdata differs between live replicas: instance={} tzdata={}, {}; replicas on different "
                            + "time-zone data can compute different instants for one cron: run them all on one tzdata "
                            + "version (update the JDK or its tzdata on every replica)", self, tzdata,
                    differing.stream().map(node -> "instance=" + node.instanceId() + " tzdata=" + node.tzdata())
                            .collect(Collectors.joining(", ")));
        }
    }

    private void markSeen() {
        try {
            nodes.seen(cluster.selfId(), tzdata, javaVersion);
        } catch (RuntimeException e) {
            log.warn("replica not marked seen, retrying in {} error={}", SEEN_EVERY, e.toString());
        }
    }

    @Override
    public synchronized void start() {
        try {
            checkAtStartup();
        } catch (RuntimeException e) {
            // a diagnosis: the replica fires correctly without it
            log.warn("tzdata version={} not recorded or compared with the other replicas error={}", tzdata, e.toString());
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "onebeat-node-seen");
            thread.setDaemon(true);
            return thread;
        });
        long millis = SEEN_EVERY.toMillis();
        executor.scheduleWithFixedDelay(this::markSeen, millis, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        executor.shutdownNow();
        executor = null;
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    /** Before Quartz starts firing (its scheduler starts in the last phase), so the log leads its fires. */
    @Override
    public int getPhase() {
        return 0;
    }
}
