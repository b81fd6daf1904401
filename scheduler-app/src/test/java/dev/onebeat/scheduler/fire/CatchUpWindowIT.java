package dev.onebeat.scheduler.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.ScheduleKeys;
import java.sql.Timestamp;
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
        "onebeat.jobs[1].name=hourly-default", "onebeat.jobs[1].every=1h", "onebeat.jobs[1].task=reports.other"})
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

        scheduleFire.fire(schedule, ninetyMinutesAgoOrMore, FireTrigger.MISFIRE, "test-node");
        scheduleFire.fire(schedule, threeHoursAgoOrMore, FireTrigger.MISFIRE, "test-node");
        scheduleFire.fire(schedule, threeHoursAgoOrMore, FireTrigger.RECOVERY, "test-node");

        assertThat(committed(ninetyMinutesAgoOrMore)).as("inside the 2 h window only").containsExactly("hourly-two-hours");
        assertThat(skipped(ninetyMinutesAgoOrMore)).containsExactly("hourly-default outside catch-up window misfire");
        assertThat(committed(threeHoursAgoOrMore)).isEmpty();
        assertThat(skipped(threeHoursAgoOrMore)).as("each once, though fired twice").containsExactly(
                "hourly-default outside catch-up window misfire", "hourly-two-hours outside catch-up window misfire");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE scheduled_at = ?")
                .param(Timestamp.from(threeHoursAgoOrMore)).query(Long.class).single()).isZero();
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
