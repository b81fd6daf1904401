package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import dev.onebeat.scheduler.operate.admin.RuntimeJobs;
import dev.onebeat.scheduler.operate.monitor.MonitorTable.Event;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A check after the first reads only the jobs that may have something to judge, not the whole catalog: those whose
 * deadline has come, those with ledger rows written since the last check, and a slice of the catalog swept in name
 * order ({@code onebeat.monitor.sweep-jobs}, 100 here against 250 jobs). A success is judged as soon as its fire is
 * written, a miss as soon as the deadline passes, whether or not the sweep has reached the job. And each replica
 * keeps per-job gauges for at most {@code onebeat.monitor.job-gauges} jobs.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.enabled=false", "onebeat.monitor.sweep-jobs=100", "onebeat.monitor.job-gauges=100"})
class MonitorCandidatesIT {

    private static final int JOBS = 250;
    /** a second past a round minute, well after the jobs were stored */
    private static final Instant T = Instant.parse("2027-03-01T10:00:01Z");

    @Autowired
    MonitorCheck check;
    @Autowired
    MonitorTable table;
    @Autowired
    RuntimeJobs runtimeJobs;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    MonitorMetrics metrics;
    @Autowired
    MeterRegistry meters;
    @Autowired
    InstantRecords records;
    @Autowired
    RuntimeJobStore store;

    @Test
    void aQuietCheckReadsItsCandidatesOnlyAndStillJudgesEveryFireAndEveryMiss() {
        for (int i = 0; i < JOBS; i++) {
            runtimeJobs.create(Definition.builder(name(i)).every("60s").task("t").build());
        }
        // stored an hour ago: a catalog row written within the last minute is news to every check
        jdbc.sql("UPDATE onebeat_job SET updated_at = now() - interval '1 hour'").update();
        check.forget();
        MonitorCheck.Result first = check.run(T, "n1");
        assertThat(first.jobs()).as("a replica's first check looks at every job").isEqualTo(JOBS);

        MonitorCheck.Result quiet = check.run(T.plusSeconds(1), "n1");
        assertThat(quiet.jobs()).as("then only the swept slice: nothing was written, no deadline came")
                .isEqualTo(100);

        // the next instant, fired for one job the sweep has not reached
        Instant instant = T.plusSeconds(59);
        String fired = name(240);
        commit(fired, instant);
        MonitorCheck.Result afterFire = check.run(instant.plusSeconds(1), "n1");
        assertThat(afterFire.jobs()).as("the next slice and the job with a new ledger row").isEqualTo(101);
        assertThat(afterFire.judged()).as("its instant judged at once, the others' still within their grace")
                .isEqualTo(1);
        assertThat(table.progress(List.of(fired)).get(fired).checkedUntil()).isEqualTo(instant);

        Instant deadline = table.progress(List.of(name(249))).get(name(249)).nextDeadline();
        assertThat(deadline).isAfter(instant);
        List<Event> missed = check.run(deadline.plusSeconds(1), "n1").events();
        assertThat(missed).as("every other job's instant missed once its deadline passed, swept or not")
                .hasSize(JOBS - 1)
                .allSatisfy(event -> {
                    assertThat(event.kind()).isEqualTo("missed");
                    assertThat(event.instant()).isEqualTo(instant);
                })
                .extracting(Event::job).doesNotContain(fired).contains(name(0), name(249));

        // the per-job gauges: for as many jobs as onebeat.monitor.job-gauges says, not for every job
        metrics.refresh(table, records.databaseNow());
        assertThat(meters.find("onebeat.job.deadline.timestamp").gauges()).hasSize(100);
        assertThat(meters.find("onebeat.job.last.success.timestamp").gauges()).hasSize(100);

        // a runtime job changed, as another replica's admin service would, and reloaded: the registry changes by one
        // name, and the next check adds that job to its candidates instead of judging the whole catalog again (at a
        // million jobs, a check of every job took 12-14 s). No catalog row is written, so only the registry names it
        String changed = name(245);
        jdbc.sql("UPDATE onebeat_runtime_job SET definition = jsonb_set(definition, '{queue}', '\"other\"') WHERE name = ?")
                .param(changed).update();
        store.reload();
        MonitorCheck.Result afterChange = check.run(deadline.plusSeconds(2), "n1");
        // the next slice, the job fired above (its ledger row still within the marks' margin: 101 without the change)
        // and the changed job
        assertThat(afterChange.jobs()).as("the next slice, the fired job and the changed job, not all %d", JOBS)
                .isEqualTo(102);
    }

    private static String name(int i) {
        return String.format(Locale.ROOT, "quiet-%03d", i);
    }

    private void commit(String job, Instant instant) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome, duration_ms)
                        VALUES (?, ?, ?, 'n1', 'scheduled', 'committed', 30)""")
                .params(job, Timestamp.from(instant), Timestamp.from(instant.plusMillis(100))).update();
    }
}
