package dev.onebeat.scheduler.cluster;

import java.time.Duration;
import java.util.Collection;
import org.springframework.stereotype.Component;

/**
 * What the live cluster registers. Each replica records the jobs it registers ({@link #registers}); a replica is
 * alive while its heartbeat in {@code onebeat_node} is younger than {@code onebeat.cluster.liveness-timeout} in
 * database time, so a replica that dies stops counting once that timeout has passed, whatever any clock says.
 */
@Component
public class LiveNodes {

    private final NodeTable nodes;
    private final ClusterState cluster;
    private final ClusterProperties properties;
    private final String tzdata = Tzdata.version();
    private final String javaVersion = Runtime.version().toString();

    LiveNodes(NodeTable nodes, ClusterState cluster, ClusterProperties properties) {
        this.nodes = nodes;
        this.cluster = cluster;
        this.properties = properties;
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

    /** @return this replica's instance id */
    public String self() {
        return cluster.selfId();
    }

    /** @return how long a replica counts as alive after its last heartbeat */
    public Duration livenessTimeout() {
        return properties.livenessTimeout();
    }

    /** @return how often replicas mark themselves seen */
    public Duration heartbeatInterval() {
        return properties.heartbeatInterval();
    }
}
