package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.ScheduleKeys;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A schedule's fire for an instant older than a job's catch-up window (a late recovery, a replay of
 * missed instants) skips that job, recorded once with the reason; a younger instant fires.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=hourly-two-hours", "onebeat.jobs[0].every=1h", "onebeat.jobs[0].task=reports.hourly",
        "onebeat.jobs[0].catch-up-window=2h",
        "onebeat.jobs[1].name=hourly-default", "onebeat.jobs[1].every=1h", "onebeat.jobs[1].task=reports.other",
        "onebeat.fire.catch-up-spacing=10ms",
        "onebeat.jobs[2].name=all-stayed", "onebeat.jobs[2].every=600s", "onebeat.jobs[2].task=t",
        "onebeat.jobs[2].misfire=fire-all-missed", "onebeat.jobs[2].catch-up-window=2h",
        "onebeat.jobs[3].name=all-joined", "onebeat.jobs[3].every=600s", "onebeat.jobs[3].task=t",
        "onebeat.jobs[3].misfire=fire-all-missed", "onebeat.jobs[3].catch-up-window=2h",
        "onebeat.jobs[4].name=all-left", "onebeat.jobs[4].every=1200s", "onebeat.jobs[4].task=t",
        "onebeat.jobs[4].misfire=fire-all-missed", "onebeat.jobs[4].catch-up-window=2h",
        "onebeat.jobs[5].name=once-left", "onebeat.jobs[5].every=1800s", "onebeat.jobs[5].task=t"})
class CatchUpWindowIT {


    @Autowired
    ScheduleFire scheduleFire;
    @Autowired
    JobRegistry registry;
    @Autowired
    JdbcClient jdbc;

    @Test
    void eachJobOfAScheduleFiresAnOldInstantOnlyInsideItsOwnWindow() {
        String schedule = ScheduleKeys.key(registry.find("hourly-two-hours").orElseThrow().job());
        assertThat(ScheduleKeys.key(registry.find("hourly-default").orElseThrow().job())).as("one schedule")
                .isEqualTo(schedule);
        // the jobs were stored at start-up: make them members of their schedule since long before the instants fired
        jdbc.sql("UPDATE onebeat_job SET member_since = TIMESTAMPTZ '2020-01-01 00:00:00Z'").update();
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        Instant ninetyMinutesAgoOrMore = hour.minus(1, ChronoUnit.HOURS);
        Instant threeHoursAgoOrMore = hour.minus(3, ChronoUnit.HOURS);

        scheduleFire.fire(schedule, FireRequest.of(ninetyMinutesAgoOrMore, FireTrigger.MISFIRE, "test-node"));
        scheduleFire.fire(schedule, FireRequest.of(threeHoursAgoOrMore, FireTrigger.MISFIRE, "test-node"));
        scheduleFire.fire(schedule, FireRequest.of(threeHoursAgoOrMore, FireTrigger.RECOVERY, "test-node"));

        assertThat(committed(ninetyMinutesAgoOrMore)).as("inside the 2 h window only").containsExactly("hourly-two-hours");
        assertThat(skipped(ninetyMinutesAgoOrMore)).containsExactly("hourly-default outside catch-up window misfire");
        assertThat(committed(threeHoursAgoOrMore)).isEmpty();
        assertThat(skipped(threeHoursAgoOrMore)).as("each once, though fired twice").containsExactly(
                "hourly-default outside catch-up window misfire", "hourly-two-hours outside catch-up window misfire");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE scheduled_at = ?")
                .param(Timestamp.from(threeHoursAgoOrMore)).query(Long.class).single()).isZero();
    }

    @Test
    void missedInstantsArePlannedWithTheMembersOfEachInstant() {
        String schedule = ScheduleKeys.key(registry.find("all-stayed").orElseThrow().job());
        // an outage from t+10m to t+40m of the 10-minute schedule, settled by the fire of t+50m, all within the hour
        Instant t = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(1, ChronoUnit.HOURS);
        List<Instant> missed = List.of(t.plusSeconds(600), t.plusSeconds(1200), t.plusSeconds(1800), t.plusSeconds(2400));
        Instant own = t.plusSeconds(3000);
        jdbc.sql("UPDATE onebeat_job SET member_since = ? WHERE name = 'all-stayed'").param(Timestamp.from(t)).update();
        // joined the schedule during the outage, between t+20m and t+30m
        jdbc.sql("UPDATE onebeat_job SET schedule_key = ?, member_since = ? WHERE name = 'all-joined'")
                .params(schedule, Timestamp.from(t.plusSeconds(1500))).update();
        // left it for another schedule at the same time
        jdbc.sql("UPDATE onebeat_job SET previous_key = ?, left_at = ? WHERE name = 'all-left'")
                .params(schedule, Timestamp.from(t.plusSeconds(1500))).update();

        scheduleFire.fire(schedule, FireRequest.of(own, FireTrigger.MISFIRE, "test-node"), new Missed(
                missed.stream().map(at -> Timetable.of(Schedule.every(Duration.ofSeconds(600))).next(at.minusSeconds(1)))
                        .toList(), true, true, 0));

        assertThat(committedOf("all-stayed", own)).containsExactly(missed.get(0), missed.get(1), missed.get(2), missed.get(3),
                own);
        assertThat(committedOf("all-joined", own)).as("nothing before it joined").containsExactly(missed.get(2),
                missed.get(3), own);
        assertThat(committedOf("all-left", own)).as("what it was a member of").containsExactly(missed.get(0), missed.get(1));
        assertThat(skippedOf("all-joined")).isEmpty();
    }

    @Test
    void aJobThatLeftDuringTheOutageHasItsLatestInstantFiredOnceNowAndTheEarlierOneSuperseded() {
        // a schedule of its own, instants every 10 minutes: the job left it between the outage's last and the fire
        String schedule = "s-left-during-outage";
        Instant own = Instant.ofEpochSecond(Instant.now().getEpochSecond() / 600 * 600);
        List<Instant> missed = List.of(own.minusSeconds(1200), own.minusSeconds(600));
        jdbc.sql("UPDATE onebeat_job SET previous_key = ?, left_at = ? WHERE name = 'once-left'")
                .params(schedule, Timestamp.from(own.minusSeconds(1))).update();

        scheduleFire.fire(schedule, FireRequest.of(own, FireTrigger.MISFIRE, "test-node"), new Missed(
                missed.stream().map(at -> Timetable.of(Schedule.every(Duration.ofSeconds(600))).next(at.minusSeconds(1)))
                        .toList(), true, true, 0));

        assertThat(skippedOf("once-left")).as("recorded, with the reason").containsExactly(
                missed.get(0) + " missed, a later instant fired misfire");
        assertThat(committedOf("once-left", own)).containsExactly(missed.get(1));
    }

    @Test
    void aMemberOfMissedInstantsThatThisReplicaDoesNotRegisterHasThemRecordedSkippedWithTheReason() {
        // a schedule of its own; a job registered only by another replica left it during the outage
        String schedule = "s-unregistered-member";
        Instant own = Instant.ofEpochSecond(Instant.now().getEpochSecond() / 600 * 600);
        List<Instant> missed = List.of(own.minusSeconds(1800), own.minusSeconds(1200), own.minusSeconds(600));
        jdbc.sql("""
                        INSERT INTO onebeat_job (name, schedule_key, schedule, member_since, previous_key, left_at)
                        SELECT 'elsewhere-left', 'other-schedule', schedule, ?, ?, ?
                        FROM onebeat_job WHERE name = 'once-left'""")
                .params(Timestamp.from(own.minusSeconds(900)), schedule, Timestamp.from(own.minusSeconds(900)))
                .update();
        // registered by this replica's cluster as far as orphaning goes: only this replica's registry lacks it
        jdbc.sql("INSERT INTO onebeat_node_job (instance_id, job_name) SELECT instance_id, 'elsewhere-left' "
                + "FROM onebeat_node_job WHERE job_name = 'once-left'").update();

        scheduleFire.fire(schedule, FireRequest.of(own, FireTrigger.MISFIRE, "test-node"), new Missed(
                missed.stream().map(at -> Timetable.of(Schedule.every(Duration.ofSeconds(600))).next(at.minusSeconds(1)))
                        .toList(), true, true, 0));

        assertThat(skippedOf("elsewhere-left")).as("each instant it was a member of, with the reason").containsExactly(
                missed.get(0) + " missed, not registered where caught up misfire",
                missed.get(1) + " missed, not registered where caught up misfire");
    }

    /** @return the job's committed instants up to {@code until}: Quartz may fire its own schedule's later ones */
    private List<Instant> committedOf(String job, Instant until) {
        return jdbc.sql("""
                        SELECT scheduled_at FROM onebeat_fire WHERE job_name = ? AND run_id = '' AND scheduled_at <= ?
                        ORDER BY scheduled_at""")
                .params(job, Timestamp.from(until)).query((rs, row) -> rs.getTimestamp(1).toInstant()).list();
    }

    private List<String> skippedOf(String job) {
        return jdbc.sql("""
                        SELECT scheduled_at, reason, trigger_kind FROM onebeat_fire_attempt
                        WHERE job_name = ? AND outcome = 'skipped' ORDER BY scheduled_at""")
                .param(job).query((rs, row) -> rs.getTimestamp(1).toInstant() + " " + rs.getString(2) + " "
                        + rs.getString(3)).list();
    }

    private List<String> committed(Instant at) {
        return jdbc.sql("SELECT job_name FROM onebeat_fire WHERE scheduled_at = ? ORDER BY job_name")
                .param(Timestamp.from(at)).query(String.class).list();
    }

    private List<String> skipped(Instant at) {
        return jdbc.sql("""
                        SELECT job_name || ' ' || reason || ' ' || trigger_kind FROM onebeat_fire_attempt
                        WHERE scheduled_at = ? AND outcome = 'skipped' ORDER BY job_name
                        """)
                .param(Timestamp.from(at)).query(String.class).list();
    }
}
