package dev.onebeat.scheduler.engine.fire;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.stereotype.Component;

/**
 * Fire metrics: {@code onebeat_fires_total{job,outcome}}, {@code onebeat_tasks_dispatched_total{job}},
 * {@code onebeat_tasks_duplicate_total{job}} and {@code onebeat_fire_lag_seconds{trigger}} (commit time
 * minus planned time, a histogram: a job's jitter and spread are not lateness). The lag histogram is not per job: with its buckets, 10,000 jobs
 * would make a scrape of 730,000 lines (48 MB, 3 s to write); a counter per job is one line.
 */
@Component
class FireMetrics {

    private final MeterRegistry registry;
    // looked up once per job and kind: building a meter's id on every fire allocated its tags and id each time, a
    // cost that showed in the CPU of a burst of 100,000 fires
    private final ConcurrentMap<String, JobMeters> jobs = new ConcurrentHashMap<>();
    private final ConcurrentMap<FireTrigger, Timer> lags = new ConcurrentHashMap<>();

    FireMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** One job's counters, registered the first time each is needed. */
    private final class JobMeters {

        private final String job;
        private final Counter[] fires = new Counter[FireOutcome.values().length];
        private Counter dispatched;
        private Counter duplicate;

        JobMeters(String job) {
            this.job = job;
        }

        synchronized Counter fires(FireOutcome outcome) {
            Counter counter = fires[outcome.ordinal()];
            if (counter == null) {
                counter = Counter.builder("onebeat.fires").description("Fire attempts by outcome")
                        .tag("job", job).tag("outcome", outcome.tag()).register(registry);
                fires[outcome.ordinal()] = counter;
            }
            return counter;
        }

        synchronized Counter dispatched() {
            if (dispatched == null) {
                dispatched = Counter.builder("onebeat.tasks.dispatched").description("Tasks inserted into the outbox")
                        .tag("job", job).register(registry);
            }
            return dispatched;
        }

        synchronized Counter duplicate() {
            if (duplicate == null) {
                duplicate = Counter.builder("onebeat.tasks.duplicate").description(
                        "Dispatches whose idempotency key already existed").tag("job", job).register(registry);
            }
            return duplicate;
        }
    }

    void record(FireResult result, FireTrigger trigger, Duration lag) {
        JobMeters meters = jobs.computeIfAbsent(result.job(), JobMeters::new);
        meters.fires(result.outcome()).increment();
        if (result.outcome() != FireOutcome.COMMITTED) {
            return;
        }
        meters.dispatched().increment(result.dispatched());
        meters.duplicate().increment(result.duplicateTasks());
        lags.computeIfAbsent(trigger, kind -> Timer.builder("onebeat.fire.lag").description("Commit time minus planned "
                        + "time (the instant plus the job's spread and jitter) of committed fires")
                .tag("trigger", kind.column()).publishPercentileHistogram().register(registry))
                .record(lag.isNegative() ? Duration.ZERO : lag);
    }
}
