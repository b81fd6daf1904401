package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.NamespaceMetrics;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Per-job fire counters up to {@code onebeat.fire.job-meters} jobs; past it, per namespace under {@code (others)}. */
class FireMetricsTest {

    private static final Instant AT = Instant.parse("2026-12-06T10:00:00Z");

    @Test
    void jobsPastTheLimitCountAmongTheOthersOfTheirNamespaceAndTheSumsStayWhole() {
        JobRegistry jobs = JobRegistry.of(Stream.of(job("a", "default"), job("b", "default"), job("c", "payments"),
                job("d", "payments"), job("e", "default")).map(job -> new RegisteredJob(job, "test")).toList());
        // no namespace filter: the counters carry their namespace themselves, so all have the same tags
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        FireMetrics metrics = new FireMetrics(meters, jobs, withJobMeters(2));

        for (String job : List.of("a", "b", "c", "d", "e", "a", "c", "gone")) {
            metrics.record(new FireResult(job, AT, FireOutcome.COMMITTED, 3, 1, Duration.ofMillis(5), null),
                    FireTrigger.SCHEDULED, Duration.ofMillis(40));
        }

        assertThat(fires(meters, "a")).isEqualTo(2);
        assertThat(meters.get("onebeat.fires").tag("job", "a").counter().getId().getTag("namespace")).isEqualTo("default");
        assertThat(fires(meters, "b")).isEqualTo(1);
        assertThat(meters.find("onebeat.fires").tag("job", "c").counters()).as("c came third: past the limit").isEmpty();
        assertThat(meters.get("onebeat.fires").tags("job", FireMetrics.OTHER_JOBS, "namespace", "payments").counter()
                .count()).as("c twice and d").isEqualTo(3);
        assertThat(meters.get("onebeat.fires").tags("job", FireMetrics.OTHER_JOBS, "namespace", "default").counter()
                .count()).as("e").isEqualTo(1);
        assertThat(meters.get("onebeat.fires").tags("job", FireMetrics.OTHER_JOBS, "namespace", NamespaceMetrics.UNKNOWN)
                .counter().count()).as("a job this replica does not know").isEqualTo(1);
        assertThat(meters.find("onebeat.fires").counters().stream().mapToDouble(c -> c.count()).sum())
                .as("every fire counted once").isEqualTo(8);
        assertThat(meters.find("onebeat.tasks.dispatched").counters().stream().mapToDouble(c -> c.count()).sum())
                .isEqualTo(24);
        assertThat(meters.find("onebeat.tasks.duplicate").counters().stream().mapToDouble(c -> c.count()).sum())
                .isEqualTo(8);
        assertThat(meters.find("onebeat.fires").counters()).as("two jobs' own, three namespaces' others").hasSize(5);
        assertThat(meters.scrape()).contains("onebeat_fires_total{job=\"(others)\",namespace=\"payments\",outcome=\"committed\"} 3");
    }

    @Test
    void aLimitOfZeroKeepsNoJobsOwnCounters() {
        JobRegistry jobs = JobRegistry.of(List.of(new RegisteredJob(job("a", "default"), "test")));
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        FireMetrics metrics = new FireMetrics(meters, jobs, withJobMeters(0));

        metrics.record(new FireResult("a", AT, FireOutcome.FAILED, 0, 0, Duration.ZERO, null), FireTrigger.SCHEDULED,
                Duration.ZERO);

        assertThat(meters.find("onebeat.fires").counters()).extracting(counter -> counter.getId().getTag("job"))
                .containsExactly(FireMetrics.OTHER_JOBS);
        assertThat(meters.getMeters()).extracting(Meter::getId).extracting(id -> id.getTag("job"))
                .doesNotContain("a");
    }

    private static FireProperties withJobMeters(int limit) {
        FireProperties defaults = FireProperties.DEFAULTS;
        return new FireProperties(defaults.batchSize(), defaults.lockPollInterval(), defaults.lockWaitMargin(),
                defaults.threads(), defaults.batch(), defaults.catchUpSpacing(), defaults.share(), limit);
    }

    private static PeriodicJob job(String name, String namespace) {
        return Jobs.periodic(name, Schedule.every(Duration.ofMinutes(1))).namespace(namespace).execute(context -> { });
    }

    private static double fires(PrometheusMeterRegistry meters, String job) {
        return meters.get("onebeat.fires").tag("job", job).counter().count();
    }
}
