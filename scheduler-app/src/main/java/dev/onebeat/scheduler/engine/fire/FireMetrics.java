package dev.onebeat.scheduler.engine.fire;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
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

    FireMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void record(FireResult result, FireTrigger trigger, Duration lag) {
        Counter.builder("onebeat.fires").description("Fire attempts by outcome")
                .tag("job", result.job()).tag("outcome", result.outcome().tag())
                .register(registry).increment();
        if (result.outcome() != FireOutcome.COMMITTED) {
            return;
        }
        Counter.builder("onebeat.tasks.dispatched").description("Tasks inserted into the outbox")
                .tag("job", result.job()).register(registry).increment(result.dispatched());
        Counter.builder("onebeat.tasks.duplicate").description("Dispatches whose idempotency key already existed")
                .tag("job", result.job()).register(registry).increment(result.duplicateTasks());
        Timer.builder("onebeat.fire.lag").description("Commit time minus planned time (the instant plus the job's spread and jitter) of committed fires")
                .tag("trigger", trigger.column()).publishPercentileHistogram()
                .register(registry).record(lag.isNegative() ? Duration.ZERO : lag);
    }
}
