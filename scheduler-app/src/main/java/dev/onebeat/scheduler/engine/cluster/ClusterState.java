package dev.onebeat.scheduler.engine.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Reads the replicas Quartz knows from {@code QRTZ_SCHEDULER_STATE}, with the versions each recorded in
 * {@code onebeat_node} at start-up.
 */
@Component
public class ClusterState {

    private final JdbcClient jdbc;
    private final Scheduler scheduler;
    private final NodeTable recorded;

    ClusterState(JdbcClient jdbc, Scheduler scheduler, NodeTable recorded) {
        this.jdbc = jdbc;
        this.scheduler = scheduler;
        this.recorded = recorded;
    }

    /**
     * A replica of the cluster.
     *
     * @param instanceId Quartz instance id, also the {@code node} of the fires it records
     * @param lastCheckin its last check-in, by its own clock
     * @param checkinIntervalMillis how often it checks in
     * @param self whether it is the replica answering
     * @param tzdata the tzdb version of its JDK ({@code 2025a}), null if it recorded none (a replica of a
     *     version before onebeat recorded it)
     * @param javaVersion its Java runtime version, null if it recorded none
     * @param clockSkewMillis its clock against the database's at its last check-in: the database's stamp of the
     *     check-in minus the time the replica wrote into it (negative when the replica's clock is ahead; a few
     *     milliseconds of the round trip come with it)
     */
    public record Node(String instanceId, Instant lastCheckin, long checkinIntervalMillis, boolean self,
                       String tzdata, String javaVersion, long clockSkewMillis) {
    }

    /** @return the replicas that checked in and were not yet declared dead */
    public List<Node> nodes() {
        try {
            String self = scheduler.getSchedulerInstanceId();
            Map<String, NodeTable.Row> versions = recorded.all().stream()
                    .collect(Collectors.toMap(NodeTable.Row::instanceId, Function.identity()));
            return jdbc.sql("""
                            SELECT instance_name, last_checkin_time, checkin_interval,
                                   floor(extract(epoch FROM onebeat_checked_in_at) * 1000) - last_checkin_time
                            FROM qrtz_scheduler_state WHERE sched_name = ? ORDER BY instance_name
                            """)
                    .param(scheduler.getSchedulerName())
                    .query((rs, row) -> {
                        NodeTable.Row versioned = versions.get(rs.getString(1));
                        return new Node(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getLong(3),
                                rs.getString(1).equals(self), versioned == null ? null : versioned.tzdata(),
                                versioned == null ? null : versioned.javaVersion(), rs.getLong(4));
                    })
                    .list();
        } catch (SchedulerException e) {
            throw new IllegalStateException("Quartz scheduler unavailable", e);
        }
    }

    /** @return this replica's Quartz instance id */
    public String selfId() {
        try {
            return scheduler.getSchedulerInstanceId();
        } catch (SchedulerException e) {
            throw new IllegalStateException("Quartz scheduler unavailable", e);
        }
    }
}
