package dev.onebeat.scheduler.cluster;

import java.time.Instant;
import java.util.List;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Reads the replicas Quartz knows from {@code QRTZ_SCHEDULER_STATE}. */
@Component
public class ClusterState {

    private final JdbcClient jdbc;
    private final Scheduler scheduler;

    ClusterState(JdbcClient jdbc, Scheduler scheduler) {
        this.jdbc = jdbc;
        this.scheduler = scheduler;
    }

    /**
     * A replica of the cluster.
     *
     * @param instanceId Quartz instance id, also the {@code node} of the fires it records
     * @param lastCheckin its last check-in, by its own clock
     * @param checkinIntervalMillis how often it checks in
     * @param self whether it is the replica answering
     */
    public record Node(String instanceId, Instant lastCheckin, long checkinIntervalMillis, boolean self) {
    }

    /** @return the replicas that checked in and were not yet declared dead */
    public List<Node> nodes() {
        try {
            String self = scheduler.getSchedulerInstanceId();
            return jdbc.sql("""
                            SELECT instance_name, last_checkin_time, checkin_interval FROM qrtz_scheduler_state
                            WHERE sched_name = ? ORDER BY instance_name
                            """)
                    .param(scheduler.getSchedulerName())
                    .query((rs, row) -> new Node(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getLong(3),
                            rs.getString(1).equals(self)))
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
