package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import java.time.Instant;
import java.util.List;

/**
 * Told what each check of the missed-fire detector found, inside the check's transaction: what it writes commits
 * with the events, or not at all (the alert deliveries in the outbox, so that an alert is never lost nor sent for an
 * event that was rolled back).
 */
public interface JobEventSink {

    /**
     * An instant a check judged, of a job with a monitor of its own (a Healthchecks ping URL, a Sentry monitor).
     *
     * @param outcome {@code success}, {@code failed} or {@code missed}
     * @param reason why it failed or was missed, or null
     */
    record Judged(String job, Instant instant, String outcome, String reason) {
    }

    /**
     * @param events the events the check wrote for the first time, oldest instant first per job
     * @param judged the instants it judged of jobs with a monitor of their own, oldest first per job
     */
    void record(List<Event> events, List<Judged> judged);
}
