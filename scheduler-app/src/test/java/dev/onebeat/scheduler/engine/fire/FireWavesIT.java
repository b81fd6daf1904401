package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.registry.ScheduleKeys;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The members of a spread schedule fire in waves, each no earlier than its planned moment: a recovery of an instant
 * half through its spread fires at once the members whose moment has passed and waits for the others, and a replica
 * that stops during a spread fires the members still waiting at once, none lost and none twice. A member fired alone
 * (handed back by a replica that does not register it) waits for its moment too, and so it does again once a stopped
 * replica is started again.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "onebeat.jobs[0].name=wave-0", "onebeat.jobs[0].every=1h", "onebeat.jobs[0].task=t", "onebeat.jobs[0].spread=6s",
        "onebeat.jobs[1].name=wave-1", "onebeat.jobs[1].every=1h", "onebeat.jobs[1].task=t", "onebeat.jobs[1].spread=6s",
        "onebeat.jobs[2].name=wave-2", "onebeat.jobs[2].every=1h", "onebeat.jobs[2].task=t", "onebeat.jobs[2].spread=6s",
        "onebeat.jobs[3].name=wave-3", "onebeat.jobs[3].every=1h", "onebeat.jobs[3].task=t", "onebeat.jobs[3].spread=6s",
        "onebeat.jobs[4].name=wave-4", "onebeat.jobs[4].every=1h", "onebeat.jobs[4].task=t", "onebeat.jobs[4].spread=6s",
        "onebeat.jobs[5].name=wave-5", "onebeat.jobs[5].every=1h", "onebeat.jobs[5].task=t", "onebeat.jobs[5].spread=6s"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FireWavesIT {

    private static final int JOBS = 6;
    /** A wave starts up to a tick past its first moment; its transaction takes a little more, on a loaded machine more. */
    private static final Duration SOON_AFTER = ScheduleFire.WAVE_TICK.plusSeconds(3);
    /** The database's and the JVM's clocks are one machine's, read at slightly different points. */
    private static final Duration CLOCKS = Duration.ofMillis(20);

    @Autowired
    ScheduleFire scheduleFire;
    @Autowired
    FirePath firePath;
    @Autowired
    JobRegistry registry;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    ConfigurableApplicationContext context;

    @BeforeEach
    void membersSinceLongBefore() {
        // stored at start-up, a moment ago: members of their schedule since long before the instants fired here
        jdbc.sql("UPDATE onebeat_job SET member_since = TIMESTAMPTZ '2020-01-01 00:00:00Z'").update();
    }

    @Test
    @Order(1)
    void aRecoveryHalfThroughTheSpreadFiresThePassedMomentsAtOnceAndWaitsForTheOthers() {
        // an instant of the past, 3 s into its 6 s spread: as a replica dying mid-spread leaves it to a survivor
        Instant instant = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(3);
        Map<String, Instant> planned = planned(instant);
        Instant start = Instant.now();

        scheduleFire.fire(scheduleKey(), FireRequest.of(instant, FireTrigger.RECOVERY, "test-node"));

        Map<String, Instant> fired = fired(instant);
        assertThat(fired).as("every member, once").containsOnlyKeys(planned.keySet());
        fired.forEach((job, at) -> {
            Instant moment = planned.get(job).isBefore(start) ? start : planned.get(job);
            assertThat(at).as(job).isAfterOrEqualTo(moment.minus(CLOCKS)).isBefore(moment.plus(SOON_AFTER));
        });
    }

    @Test
    @Order(2)
    void aMemberFiredAloneAsAHandBackKeepsItsMoment() {
        // a replica that did not register the job handed its fire back: it arrives alone, as a recovery, at the instant
        Instant instant = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        Map<String, Instant> planned = planned(instant);
        String latest = planned.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();

        firePath.fire(registry.find(latest).orElseThrow().job(), FireRequest.of(instant, FireTrigger.RECOVERY,
                "test-node"));

        assertThat(fired(instant).get(latest)).as(latest).isAfterOrEqualTo(planned.get(latest).minus(CLOCKS))
                .isBefore(planned.get(latest).plus(SOON_AFTER));
    }

    @Test
    @Order(3)
    void membersFireInWavesAtTheirMomentsAndAStoppingReplicaFiresTheRestAtOnce() throws Exception {
        Instant instant = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        Map<String, Instant> planned = planned(instant);
        Instant hurry = instant.plusSeconds(3);

        CompletableFuture<ScheduleFire.Outcome> firing = CompletableFuture.supplyAsync(
                () -> scheduleFire.fire(scheduleKey(), FireRequest.of(instant, FireTrigger.SCHEDULED, "test-node")));
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), hurry).toMillis()));
        scheduleFire.fireWaitingNow();
        firing.get(5, TimeUnit.SECONDS);

        Map<String, Instant> fired = fired(instant);
        assertThat(fired).as("every member, once: none lost to the stop").containsOnlyKeys(planned.keySet());
        fired.forEach((job, at) -> {
            // those due before the stop fired at their moments; the rest at the stop, before their moments
            Instant moment = planned.get(job).isBefore(hurry) ? planned.get(job) : hurry;
            assertThat(at).as(job).isAfterOrEqualTo(moment.minus(CLOCKS)).isBefore(moment.plus(SOON_AFTER));
        });
        assertThat(fired.values().stream().map(at -> at.truncatedTo(ChronoUnit.SECONDS)).distinct().count())
                .as("in several waves").isGreaterThan(1);
        List<String> late = planned.entrySet().stream().filter(job -> job.getValue().isAfter(hurry.plusSeconds(1)))
                .map(Map.Entry::getKey).toList();
        assertThat(late).as("members planned well after the stop").isNotEmpty()
                .allSatisfy(job -> assertThat(fired.get(job)).as(job + ": fired at the stop, before its moment")
                        .isBefore(planned.get(job)));
    }

    @Test
    @Order(4)
    void aStoppingReplicaFiresAMemberFiredAloneAtOnceToo() {
        // stopping: its waits end, and a hand-back arriving now fires at once instead of waiting out the spread
        scheduleFire.fireWaitingNow();
        Instant instant = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        Map<String, Instant> planned = planned(instant);
        String latest = planned.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        Instant start = Instant.now();

        firePath.fire(registry.find(latest).orElseThrow().job(), FireRequest.of(instant, FireTrigger.RECOVERY,
                "test-node"));

        assertThat(planned.get(latest)).as("planned well after the stop").isAfter(start.plusSeconds(2));
        assertThat(fired(instant).get(latest)).as(latest + ": at the stop, not at its moment")
                .isBefore(planned.get(latest).minusSeconds(1));
    }

    @Test
    @Order(5)
    void aReplicaStoppedAndStartedAgainWaitsForTheMomentsAgain() {
        // the stop above ended the waits; a context stopped and started (as Spring's test cache pauses one) waits again
        context.stop();
        context.start();
        Instant instant = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        Map<String, Instant> planned = planned(instant);
        String latest = planned.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();

        firePath.fire(registry.find(latest).orElseThrow().job(), FireRequest.of(instant, FireTrigger.RECOVERY,
                "test-node"));

        assertThat(fired(instant).get(latest)).as(latest + ": at its moment again").isAfterOrEqualTo(
                planned.get(latest).minus(CLOCKS)).isBefore(planned.get(latest).plus(SOON_AFTER));
    }

    private String scheduleKey() {
        return ScheduleKeys.key(registry.find("wave-0").orElseThrow().job());
    }

    private Map<String, Instant> planned(Instant instant) {
        return IntStream.range(0, JOBS).mapToObj(i -> registry.find("wave-" + i).orElseThrow())
                .collect(Collectors.toMap(RegisteredJob::name, job -> FireMoments.plannedAt(job.job(), instant)));
    }

    private Map<String, Instant> fired(Instant instant) {
        List<Map.Entry<String, Instant>> rows = jdbc.sql(
                        "SELECT job_name, fired_at FROM onebeat_fire WHERE scheduled_at = ? AND outcome = 'committed'")
                .param(Timestamp.from(instant))
                .query((rs, row) -> Map.entry(rs.getString(1), rs.getTimestamp(2).toInstant())).list();
        return rows.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
