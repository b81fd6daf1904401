package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.engine.registry.JobRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
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
    private final JobRegistry jobRegistry;
    // looked up once per job and kind: building a meter's id on every fire allocated its tags and id each time, a
    // cost that showed in the CPU of a burst of 100,000 fires
    private final ConcurrentMap<String, JobMeters> jobs = new ConcurrentHashMap<>();
    private final ConcurrentMap<FireTrigger, Timer> lags = new ConcurrentHashMap<>();

    FireMetrics(MeterRegistry registry, JobRegistry jobRegistry) {
        this.registry = registry;
        this.jobRegistry = jobRegistry;
    }

    /** One job's counters, registered the first time each is needed. */
    private final class JobMeters {

        private final String job;
        /** The job's namespace when its meters were registered: they carry it as a tag (NamespaceMetrics). */
        private final String namespace;
        private final Counter[] fires = new Counter[FireOutcome.values().length];
        private Counter dispatched;
        private Counter duplicate;

        JobMeters(String job, String namespace) {
            this.job = job;
            this.namespace = namespace;
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
        // a job moved to another namespace counts under the new one from its next fire, as it did before the cache
        String namespace = jobRegistry.find(result.job()).map(job -> job.job().namespace()).orElse(null);
        JobMeters meters = jobs.compute(result.job(), (job, cached) -> cached != null
                && Objects.equals(cached.namespace, namespace) ? cached : new JobMeters(job, namespace));
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
