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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    /** A refresh reads every job's progress once in this many turns, the rows written since in between. */
    static final int FULL_EVERY = 40;
    private static final Logger log = LoggerFactory.getLogger(MonitorMetrics.class);

    private final MeterRegistry registry;
    private final Map<String, double[]> jobs = new ConcurrentHashMap<>();
    private final Map<String, Set<Meter>> gauges = new ConcurrentHashMap<>();
    private final AtomicLong lastCheck = new AtomicLong();
    private final Timer checks;
    /** jobs with per-job gauges at most: two series each, kept by every replica */
    private final int gaugeLimit;
    private boolean limitLogged;
    private Instant refreshedAt;
    private int turns;

    MonitorMetrics(MeterRegistry registry, MonitorProperties properties) {
        this.registry = registry;
        this.gaugeLimit = properties.jobGauges();
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

    /**
     * Sets the per-job gauges from the detector's progress: every {@value #FULL_EVERY}th turn (and the first) from
     * every row, a job no longer there losing its gauges; in between from the rows written since the last refresh
     * (a minute's margin): a million rows read every 15 s on every replica took a core's seconds.
     *
     * @param databaseNow the database's time before the rows are read
     */
    synchronized void refresh(MonitorTable table, Instant databaseNow) {
        if (gaugeLimit == 0) {
            // no per-job gauge is kept: nothing to read
            return;
        }
        if (refreshedAt == null || ++turns % FULL_EVERY == 0) {
            progress(table.progress());
        } else {
            apply(table.progressWrittenSince(refreshedAt.minus(Duration.ofMinutes(1))));
        }
        refreshedAt = databaseNow;
    }

    /** Sets the per-job gauges from every job's progress; a job no longer in it loses its gauges. */
    void progress(Map<String, Progress> progress) {
        Set<String> gone = new HashSet<>(jobs.keySet());
        gone.removeAll(progress.keySet());
        apply(progress);
        for (String job : gone) {
            jobs.remove(job);
            Set<Meter> meters = gauges.remove(job);
            if (meters != null) {
                meters.forEach(registry::remove);
            }
        }
    }

    private void apply(Map<String, Progress> progress) {
        progress.forEach((job, p) -> {
            double[] values = jobs.get(job);
            if (values == null) {
                if (jobs.size() >= gaugeLimit) {
                    if (!limitLogged) {
                        limitLogged = true;
                        log.warn("per-job gauges of the missed-fire detector registered for {} jobs, not for more: "
                                + "onebeat.monitor.job-gauges limits them (the detector's events and alerts cover every "
                                + "job)", gaugeLimit);
                    }
                    return;
                }
                values = jobs.computeIfAbsent(job, this::register);
            }
            values[0] = p.lastSuccessAt() == null ? Double.NaN : p.lastSuccessAt().toEpochMilli() / 1000.0;
            values[1] = p.nextDeadline() == null ? Double.POSITIVE_INFINITY : p.nextDeadline().toEpochMilli() / 1000.0;
        });
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
