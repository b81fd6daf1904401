package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.operate.monitor.ExpectedInstants.Expected;
import dev.onebeat.scheduler.operate.monitor.ExpectedInstants.Timeline;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Expected against actual over two daylight-saving days of Europe/Paris in 2026: the night the clocks went back
 * (25 October, 02:00 twice) for an hourly cron whose instants there were committed, failed, committed late,
 * skipped while paused and never fired; and the night they went forward (29 March) for a daily 02:30 under
 * {@code gap=skip}. The rows are the ones the fire path writes, written by the test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.enabled=false",
        "onebeat.jobs[0].name=paris-hourly", "onebeat.jobs[0].cron=0 * * * *", "onebeat.jobs[0].zone=Europe/Paris",
        "onebeat.jobs[0].task=t",
        "onebeat.jobs[1].name=paris-gap", "onebeat.jobs[1].cron=30 2 * * *", "onebeat.jobs[1].zone=Europe/Paris",
        "onebeat.jobs[1].gap=skip", "onebeat.jobs[1].task=t"})
class ExpectedInstantsIT {


    @Autowired
    ExpectedInstants instants;
    @Autowired
    JobRegistry registry;
    @Autowired
    JdbcClient jdbc;

    @BeforeAll
    void history() {
        // the jobs were stored as the test started: their history here is older
        jdbc.sql("UPDATE onebeat_job SET member_since = '2026-01-01T00:00:00Z'").update();
        commit("paris-hourly", "2026-10-24T22:00:00Z", "2026-10-24T22:00:00.120Z", "scheduled", 1);
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class,
                                                          error_message, node, trigger_kind, attempted_at)
                        VALUES ('paris-hourly', '2026-10-24T23:00:00Z', 3, 'failed', 'java.sql.SQLTransientConnectionException',
                                'connection refused', 'n1', 'retry', '2026-10-24T23:00:31Z')""").update();
        commit("paris-hourly", "2026-10-25T00:00:00Z", "2026-10-25T00:02:00Z", "misfire", 1);
        for (String at : new String[] {"2026-10-25T01:00:00Z", "2026-10-25T02:00:00Z"}) {
            jdbc.sql("""
                            INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node,
                                                              trigger_kind, attempted_at)
                            VALUES ('paris-hourly', ?, 1, 'skipped', 'paused', 'n1', 'scheduled', ?)""")
                    .params(Timestamp.from(Instant.parse(at)), Timestamp.from(Instant.parse(at))).update();
        }
        for (String at : new String[] {"2026-03-27T01:30:00Z", "2026-03-28T01:30:00Z", "2026-03-30T00:30:00Z"}) {
            commit("paris-gap", at, at, "scheduled", 1);
        }
    }

    @Test
    void theNightTheClocksWentBackHasBothTwoOClocksEachWithItsOutcome() {
        Timeline timeline = of("paris-hourly", "2026-10-24T22:00:00Z", "2026-10-25T04:00:00Z");

        assertThat(timeline.instants()).extracting(Expected::instant, Expected::local, Expected::outcome).containsExactly(
                tuple(Instant.parse("2026-10-24T22:00:00Z"), OffsetDateTime.parse("2026-10-25T00:00+02:00"), "on-time"),
                tuple(Instant.parse("2026-10-24T23:00:00Z"), OffsetDateTime.parse("2026-10-25T01:00+02:00"), "failed"),
                tuple(Instant.parse("2026-10-25T00:00:00Z"), OffsetDateTime.parse("2026-10-25T02:00+02:00"), "late"),
                tuple(Instant.parse("2026-10-25T01:00:00Z"), OffsetDateTime.parse("2026-10-25T02:00+01:00"), "skipped"),
                tuple(Instant.parse("2026-10-25T02:00:00Z"), OffsetDateTime.parse("2026-10-25T03:00+01:00"), "skipped"),
                tuple(Instant.parse("2026-10-25T03:00:00Z"), OffsetDateTime.parse("2026-10-25T04:00+01:00"), "missed"));
        assertThat(timeline.instants().get(0).lagMillis()).isEqualTo(120L);
        assertThat(timeline.instants().get(1).reason())
                .isEqualTo("attempt 3 failed: java.sql.SQLTransientConnectionException: connection refused");
        assertThat(timeline.instants().get(2).lagMillis()).isEqualTo(120_000L);
        assertThat(timeline.instants().get(2).trigger()).isEqualTo("misfire");
        assertThat(timeline.instants().get(3).reason()).isEqualTo("paused");
        assertThat(timeline.instants().get(5).reason()).startsWith("no fire began by 2026-10-25T03:05:00Z");
        assertThat(timeline.counts()).containsEntry("on-time", 1).containsEntry("failed", 1).containsEntry("late", 1)
                .containsEntry("skipped", 2).containsEntry("missed", 1).containsEntry("pending", 0);
    }

    @Test
    void theNightTheClocksWentForwardSkipsTheDailyTimeInTheGapSayingWhy() {
        Timeline timeline = of("paris-gap", "2026-03-27T00:00:00Z", "2026-03-31T00:00:00Z");

        assertThat(timeline.instants()).extracting(Expected::local, Expected::outcome).containsExactly(
                tuple(OffsetDateTime.parse("2026-03-27T02:30+01:00"), "on-time"),
                tuple(OffsetDateTime.parse("2026-03-28T02:30+01:00"), "on-time"),
                tuple(OffsetDateTime.parse("2026-03-29T03:30+02:00"), "skipped"),
                tuple(OffsetDateTime.parse("2026-03-30T02:30+02:00"), "on-time"));
        assertThat(timeline.instants().get(2).reason()).isEqualTo("in a daylight-saving gap (gap=skip)");
        assertThat(timeline.instants().get(2).note()).isNotBlank();
    }

    private Timeline of(String job, String from, String to) {
        return instants.of(registry.find(job).orElseThrow().job(), Instant.parse(from), Instant.parse(to), 500);
    }

    private void commit(String job, String instant, String firedAt, String trigger, int attempt) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome, attempt)
                        VALUES (?, ?, ?, 'n1', ?, 'committed', ?)""")
                .params(job, Timestamp.from(Instant.parse(instant)), Timestamp.from(Instant.parse(firedAt)), trigger, attempt)
                .update();
    }
}
