package dev.onebeat.scheduler.engine.cluster;

import java.time.Duration;
import java.util.Collection;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * What the live cluster registers. Each replica records the jobs it registers ({@link #registers}); a replica is
 * alive while its Quartz scheduler checks in to the cluster, judged in database time (two check-in intervals, the
 * rule that judges a lock holder alive), so a replica that dies, or whose Quartz never started (a replica run with
 * {@code spring.quartz.auto-startup=false}), does not count, whatever any clock says.
 */
@Component
public class LiveNodes {

    private final NodeTable nodes;
    private final ClusterState cluster;
    private final Scheduler scheduler;
    private final Duration checkinInterval;
    private final String tzdata = Tzdata.version();
    private final String javaVersion = Runtime.version().toString();

    LiveNodes(NodeTable nodes, ClusterState cluster, Scheduler scheduler,
              @Value("${spring.quartz.properties.org.quartz.jobStore.clusterCheckinInterval:7500}") long checkinMillis) {
        if (checkinMillis <= 0) {
            throw new IllegalArgumentException(
                    "spring.quartz.properties.org.quartz.jobStore.clusterCheckinInterval: must be positive, was "
                            + checkinMillis);
        }
        this.nodes = nodes;
        this.cluster = cluster;
        this.scheduler = scheduler;
        this.checkinInterval = Duration.ofMillis(checkinMillis);
    }

    /**
     * Records, in the caller's transaction, that this replica registers exactly these jobs, and marks it seen: from
     * the commit on, none of them is orphaned while this replica is alive.
     */
    public void registers(Collection<String> names) {
        String self = cluster.selfId();
        nodes.seen(self, tzdata, javaVersion);
        nodes.registers(self, names);
    }

    /**
     * Notes again that this replica's registrations changed, once the jobs they name are all in the catalog: a
     * replica that judged orphans between the registrations and the jobs' rows judges again.
     */
    public void registrationsStored() {
        nodes.registrationChanged(cluster.selfId());
    }

    /** @return this replica's instance id */
    public String self() {
        return cluster.selfId();
    }

    /**
     * @return whether this replica's Quartz scheduler runs (started and not shut down, so checking in): only such a
     *     replica takes part in the cluster's judgements
     */
    public boolean checksIn() {
        try {
            return scheduler.isStarted() && !scheduler.isShutdown();
        } catch (SchedulerException e) {
            return false;
        }
    }

    /** @return how often replicas check in to the Quartz cluster ({@code clusterCheckinInterval}) */
    public Duration checkinInterval() {
        return checkinInterval;
    }
}
