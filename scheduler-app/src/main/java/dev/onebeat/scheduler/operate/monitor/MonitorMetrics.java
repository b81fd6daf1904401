package dev.onebeat.scheduler.operate.monitor;

import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Progress;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The detector's metrics. Counted where an event is written (one replica per event, so a sum over the replicas
 * counts each once): {@code onebeat_job_missed_total{job}}, {@code onebeat_job_failed_total{job}} and
 * {@code onebeat_job_recovered_total{job}}. Read from the detector's progress by every replica, so that any one
 * scrape answers for the whole cluster: {@code onebeat_job_last_success_timestamp_seconds{job}} (when the job's last
 * judged success committed) and {@code onebeat_job_deadline_timestamp_seconds{job}} (when its next instant is missed
 * unless a fire of it begins; {@code +Inf} while it is paused). Both stay meaningful when every replica is down: an
 * alert rule comparing {@code time()} with the last deadline scraped fires all the same. And the checks themselves:
 * {@code onebeat_monitor_check_seconds} and {@code onebeat_monitor_last_check_timestamp_seconds}. And
 * {@code onebeat_fire_lost_total}, fires a hand-back gave up, registered here so that it is scraped from the start.
 */
@Component
class MonitorMetrics {

    private final MeterRegistry registry;
    private final Map<String, double[]> jobs = new ConcurrentHashMap<>();
    private final Map<String, Set<Meter>> gauges = new ConcurrentHashMap<>();
    private final AtomicLong lastCheck = new AtomicLong();
    private final Timer checks;

    MonitorMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.checks = Timer.builder("onebeat.monitor.check").description("Checks of the missed-fire detector")
                .register(registry);
        Gauge.builder("onebeat.monitor.last.check.timestamp", lastCheck, value -> value.get() / 1000.0)
                .description("When this replica last ran a check of the missed-fire detector (0: never)")
                .baseUnit("seconds").register(registry);
        // counted where a hand-back gives a fire up (HandBack, through the global registry); shown from the start
        Counter.builder("onebeat.fire.lost").description("Fires given up: handed back and taken by no replica")
                .register(registry);
    }

    void event(Event event) {
        Counter.builder("onebeat.job." + event.kind()).description("Instants " + event.kind() + ", as the "
                        + "missed-fire detector found them").tag("job", event.job()).register(registry).increment();
    }

    void checked(Instant at, Duration took) {
        lastCheck.set(at.toEpochMilli());
        checks.record(took);
    }

    /** Sets the per-job gauges from the detector's progress; a job no longer in it loses its gauges. */
    void progress(Map<String, Progress> progress) {
        Set<String> gone = new HashSet<>(jobs.keySet());
        progress.forEach((job, p) -> {
            gone.remove(job);
            double[] values = jobs.computeIfAbsent(job, this::register);
            values[0] = p.lastSuccessAt() == null ? Double.NaN : p.lastSuccessAt().toEpochMilli() / 1000.0;
            values[1] = p.nextDeadline() == null ? Double.POSITIVE_INFINITY : p.nextDeadline().toEpochMilli() / 1000.0;
        });
        for (String job : gone) {
            jobs.remove(job);
            Set<Meter> meters = gauges.remove(job);
            if (meters != null) {
                meters.forEach(registry::remove);
            }
        }
    }

    private double[] register(String job) {
        double[] values = {Double.NaN, Double.POSITIVE_INFINITY};
        Set<Meter> meters = ConcurrentHashMap.newKeySet();
        meters.add(Gauge.builder("onebeat.job.last.success.timestamp", values, v -> v[0])
                .description("When the job's last committed fire, as the missed-fire detector judged it, committed")
                .tag("job", job).baseUnit("seconds").register(registry));
        meters.add(Gauge.builder("onebeat.job.deadline.timestamp", values, v -> v[1])
                .description("When the job's next instant is missed unless a fire of it begins (+Inf while paused)")
                .tag("job", job).baseUnit("seconds").register(registry));
        gauges.put(job, meters);
        return values;
    }
}
