package dev.onebeat.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.testsupport.PostgresExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.Scheduler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The scheduler is held in standby for six seconds, past a one-second misfire threshold, while three
 * jobs with different misfire policies are due every second.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// closes the context, and its running scheduler, before the extension drops the database
@DirtiesContext
@SpringBootTest(properties = {SchedulerTestDatabase.NO_DEMO,
        "spring.quartz.properties.org.quartz.jobStore.misfireThreshold=1000",
        "onebeat.jobs[0].name=once-now", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=t",
        "onebeat.jobs[1].name=all-missed", "onebeat.jobs[1].every=1s", "onebeat.jobs[1].task=t",
        "onebeat.jobs[1].misfire=fire-all-missed",
        "onebeat.jobs[2].name=skip", "onebeat.jobs[2].every=1s", "onebeat.jobs[2].task=t",
        "onebeat.jobs[2].misfire=skip-missed"})
class MisfireIT {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, MisfireIT.class);
    }

    @Autowired
    Scheduler scheduler;
    @Autowired
    JdbcClient jdbc;

    private Instant standbyFrom;
    private Instant standbyUntil;

    @BeforeAll
    void outage() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> count("skip") >= 2 && count("all-missed") >= 2
                && count("once-now") >= 2);
        scheduler.standby();
        standbyFrom = Instant.now();
        // the outage itself: nothing may fire while the scheduler stands by
        Thread.sleep(6000);
        standbyUntil = Instant.now();
        scheduler.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> firesAfter("skip", standbyUntil.plusSeconds(2)) >= 1
                && firesAfter("all-missed", standbyUntil.plusSeconds(2)) >= 1
                && firesAfter("once-now", standbyUntil.plusSeconds(2)) >= 1);
    }

    @Test
    void fireOnceNowFiresOneMissedInstantOnTheGridAsAMisfire() {
        List<Fire> misfires = fires("once-now").stream().filter(fire -> fire.trigger().equals("misfire")).toList();

        assertThat(misfires).hasSize(1);
        Instant instant = misfires.get(0).scheduledAt();
        // the most recent instant missed: the one due just before the scheduler came back
        assertThat(instant).isEqualTo(instant.truncatedTo(ChronoUnit.SECONDS))
                .isAfter(standbyUntil.minusSeconds(2)).isBefore(standbyUntil.plusSeconds(1));
        assertThat(inOutage("once-now")).as("the instants before it are not fired").isEmpty();
    }

    @Test
    void fireAllMissedFiresEveryMissedInstant() {
        List<Fire> fires = fires("all-missed");
        for (int i = 1; i < fires.size(); i++) {
            assertThat(Duration.between(fires.get(i - 1).scheduledAt(), fires.get(i).scheduledAt()))
                    .isEqualTo(Duration.ofSeconds(1));
        }
        assertThat(inOutage("all-missed")).hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void skipMissedFiresNothingForTheOutage() {
        assertThat(inOutage("skip")).isEmpty();
        assertThat(fires("skip")).noneMatch(fire -> fire.trigger().equals("misfire"));
    }

    record Fire(Instant scheduledAt, String trigger) {
    }

    private List<Fire> inOutage(String job) {
        // instants well inside the outage, clear of fires already under way at its edges
        return fires(job).stream().filter(fire -> fire.scheduledAt().isAfter(standbyFrom.plusSeconds(1))
                && fire.scheduledAt().isBefore(standbyUntil.minusSeconds(1))).toList();
    }

    private List<Fire> fires(String job) {
        return jdbc.sql("SELECT scheduled_at, trigger_kind FROM onebeat_fire WHERE job_name = ? ORDER BY scheduled_at")
                .param(job)
                .query((rs, row) -> new Fire(rs.getTimestamp(1).toInstant(), rs.getString(2))).list();
    }

    private long count(String job) {
        return fires(job).size();
    }

    private long firesAfter(String job, Instant after) {
        return fires(job).stream().filter(fire -> fire.scheduledAt().isAfter(after)).count();
    }
}
