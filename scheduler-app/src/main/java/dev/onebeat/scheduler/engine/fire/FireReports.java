package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.springframework.stereotype.Component;

/**
 * What every fire tells once it has ended, alone or in a batch: its metrics, its log line and, after
 * a commit only, the {@link FireListener}s.
 */
@Component
class FireReports {

    private static final Logger log = LoggerFactory.getLogger(FirePath.class);
    private static final Logger batchLog = LoggerFactory.getLogger(BatchFire.class);

    private final FireMetrics metrics;
    private final List<FireListener> listeners;

    private final FireAttempts attempts;
    private final FireFaults faults;

    FireReports(FireMetrics metrics, List<FireListener> listeners, FireAttempts attempts, FireFaults faults) {
        this.metrics = metrics;
        this.attempts = attempts;
        this.listeners = listeners;
        this.faults = faults;
    }

    /**
     * @param lag commit time minus scheduled instant
     * @param batched whether the fire shared its transaction: its line is then at DEBUG, the batch's at INFO
     */
    void committed(FireResult result, Duration lag, String node, FireTrigger trigger, boolean batched) {
        metrics.record(result, trigger, lag);
        (batched ? batchLog : log).atLevel(batched ? Level.DEBUG : Level.INFO)
                .log("fire committed job={} scheduledAt={} node={} trigger={} tasks={} duplicateTasks={} durationMs={}",
                        result.job(), result.scheduledAt(), node, trigger.column(), result.dispatched(),
                        result.duplicateTasks(), result.duration().toMillis());
        for (FireListener listener : listeners) {
            listener.committed(result);
        }
    }

    /** @param expected whether a duplicate was to be expected (a recovery of a batch the dead replica had begun) */
    void duplicate(FireResult result, String node, FireTrigger trigger, boolean expected) {
        metrics.record(result, trigger, Duration.ZERO);
        (expected ? batchLog : log).atLevel(expected ? Level.DEBUG : Level.WARN)
                .log("duplicate fire suppressed job={} scheduledAt={} node={} trigger={}", result.job(),
                        result.scheduledAt(), node, trigger.column());
    }

    /** Notes a failure of the fire path in {@link FireFaults} when the database failed it. */
    void databaseFailed(String node, Throwable error) {
        if (FireFaults.fromDatabase(error)) {
            faults.failed(FireFaults.Stage.FIRE, node, error);
        }
    }

    /**
     * Counts the failure, and notes it in {@link FireFaults} when the database failed it; {@link FireAttempts}
     * records it, arms the next attempt and logs it.
     */
    void failed(PeriodicJob job, FireResult result, FireRequest request) {
        metrics.record(result, request.trigger(), Duration.ZERO);
        databaseFailed(request.node(), result.error());
        attempts.failed(job, request.at(result.scheduledAt()), result.error());
    }
}
