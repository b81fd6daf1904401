package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.NamespaceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Fire metrics: {@code onebeat_fires_total{job,outcome}}, {@code onebeat_tasks_dispatched_total{job}},
 * {@code onebeat_tasks_duplicate_total{job}} and {@code onebeat_fire_lag_seconds{trigger}} (commit time
 * minus planned time, a histogram: a job's jitter and spread are not lateness). The lag histogram is not per job: with its buckets, 10,000 jobs
 * would make a scrape of 730,000 lines (48 MB, 3 s to write); a counter per job is one line. The per-job counters are
 * kept for {@code onebeat.fire.job-meters} jobs at most ({@link FireProperties#jobMeters()}); the fires of the jobs
 * past it count under {@value #OTHER_JOBS}, per namespace, so a sum over the jobs stays whole. Every counter carries
 * its {@code namespace} tag from here, so {@link NamespaceMetrics}' filter has nothing to look up for them.
 */
@Component
class FireMetrics {

    /**
     * The {@code job} tag of the fires of jobs past the limit. Not empty: Prometheus reads an empty label as none, and
     * the scrape's own {@code job} label would take its place. A job named so would share these series.
     */
    static final String OTHER_JOBS = "(others)";

    private static final Logger log = LoggerFactory.getLogger(FireMetrics.class);

    private final MeterRegistry registry;
    private final JobRegistry jobRegistry;
    private final int limit;
    private final AtomicInteger withMeters = new AtomicInteger();
    private final AtomicBoolean warned = new AtomicBoolean();
    /** The counters of the jobs past the limit, by namespace ({@link NamespaceMetrics#UNKNOWN} for none). */
    private final ConcurrentMap<String, JobMeters> others = new ConcurrentHashMap<>();
    // looked up once per job and kind: building a meter's id on every fire allocated its tags and id each time, a
    // cost that showed in the CPU of a burst of 100,000 fires
    private final ConcurrentMap<String, JobMeters> jobs = new ConcurrentHashMap<>();
    private final ConcurrentMap<FireTrigger, Timer> lags = new ConcurrentHashMap<>();

    FireMetrics(MeterRegistry registry, JobRegistry jobRegistry, FireProperties properties) {
        this.registry = registry;
        this.jobRegistry = jobRegistry;
        this.limit = properties.jobMeters();
    }

    /** One job's counters, registered the first time each is needed. */
    private final class JobMeters {

        private final String job;
        /** The job's namespace when its meters were registered: they carry it as a tag (NamespaceMetrics). */
        private final String namespace;
        /** The namespace tag, as NamespaceMetrics would give it. */
        private final Tags tags;
        private final Counter[] fires = new Counter[FireOutcome.values().length];
        private Counter dispatched;
        private Counter duplicate;

        JobMeters(String job, String namespace) {
            this.job = job;
            this.namespace = namespace;
            this.tags = Tags.of(NamespaceMetrics.TAG, namespace == null ? NamespaceMetrics.UNKNOWN : namespace);
        }

        synchronized Counter fires(FireOutcome outcome) {
            Counter counter = fires[outcome.ordinal()];
            if (counter == null) {
                counter = Counter.builder("onebeat.fires").description("Fire attempts by outcome")
                        .tag("job", job).tags(tags).tag("outcome", outcome.tag()).register(registry);
                fires[outcome.ordinal()] = counter;
            }
            return counter;
        }

        synchronized Counter dispatched() {
            if (dispatched == null) {
                dispatched = Counter.builder("onebeat.tasks.dispatched").description("Tasks inserted into the outbox")
                        .tag("job", job).tags(tags).register(registry);
            }
            return dispatched;
        }

        synchronized Counter duplicate() {
            if (duplicate == null) {
                duplicate = Counter.builder("onebeat.tasks.duplicate").description(
                        "Dispatches whose idempotency key already existed").tag("job", job).tags(tags).register(registry);
            }
            return duplicate;
        }
    }

    void record(FireResult result, FireTrigger trigger, Duration lag) {
        // a job moved to another namespace counts under the new one from its next fire, as it did before the cache
        String namespace = jobRegistry.find(result.job()).map(job -> job.job().namespace()).orElse(null);
        JobMeters meters = jobs.get(result.job());
        if (meters == null && withMeters.get() >= limit) {
            // past the limit a job without counters stays without: no locking compute on every fire of it
            meters = other(result.job(), namespace);
        } else if (meters == null || !Objects.equals(meters.namespace, namespace)) {
            meters = jobs.compute(result.job(), (job, cached) -> {
                if (cached != null) {
                    return Objects.equals(cached.namespace, namespace) ? cached : new JobMeters(job, namespace);
                }
                return withMeters.getAndUpdate(count -> count < limit ? count + 1 : count) < limit
                        ? new JobMeters(job, namespace) : null;
            });
            if (meters == null) {
                meters = other(result.job(), namespace);
            }
        }
        meters.fires(result.outcome()).increment();
        if (result.outcome() != FireOutcome.COMMITTED) {
            return;
        }
        meters.dispatched().increment(result.dispatched());
        meters.duplicate().increment(result.duplicateTasks());
        lag(trigger, lag);
    }

    /** The counters of a job past the limit: its namespace's share of the others. */
    private JobMeters other(String job, String namespace) {
        if (!warned.get() && warned.compareAndSet(false, true)) {
            log.warn("per-job fire counters full, the fires of further jobs count under job=\"{}\" with their namespace;"
                    + " raise the limit to count each of them limit={} firstJobPast={}", OTHER_JOBS, limit, job);
        }
        String key = namespace == null ? NamespaceMetrics.UNKNOWN : namespace;
        // looked up first: a capturing lambda would be allocated on every fire past the limit
        JobMeters meters = others.get(key);
        return meters != null ? meters : others.computeIfAbsent(key, name -> new JobMeters(OTHER_JOBS, namespace));
    }

    private void lag(FireTrigger trigger, Duration lag) {
        Timer timer = lags.get(trigger);
        if (timer == null) {
            timer = lags.computeIfAbsent(trigger, kind -> Timer.builder("onebeat.fire.lag").description("Commit time "
                            + "minus planned time (the instant plus the job's spread and jitter) of committed fires")
                    .tag("trigger", kind.column()).publishPercentileHistogram().register(registry));
        }
        timer.record(lag.isNegative() ? Duration.ZERO : lag);
    }
}
