package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.JobContext;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.fire.FireAttempts.SkipReason;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Which instants each job fires after a misfire, and which are recorded skipped with which reason, for every
 * misfire policy; an every-minute schedule missed from 10:00 to 10:20, settled at 10:20:30.
 */
class CatchUpPlanTest {

    private static final Instant LATEST = Instant.parse("2027-05-01T10:20:00Z");
    private static final Instant NOW = LATEST.plusSeconds(30);
    private static final Timetable EVERY_MINUTE = Timetable.of(Schedule.every(Duration.ofMinutes(1)));
    /** 10:00 to 10:19, the twenty instants missed before the latest. */
    private static final Missed MISSED = new Missed(EVERY_MINUTE.between(Instant.parse("2027-05-01T10:00:00Z"), LATEST,
            100), true, true, 0);

    @Test
    void fireOnceNowFiresTheLatestAndSkipsTheOthersAsSuperseded() {
        CatchUpPlan plan = CatchUpPlan.of(List.of(job("once", MisfirePolicy.FIRE_ONCE_NOW, 10, Duration.ofHours(1))),
                List.of(), LATEST, MISSED, NOW);

        assertThat(plan.fires().keySet()).containsExactly(LATEST);
        assertThat(plan.skips()).containsOnlyKeys(SkipReason.SUPERSEDED);
        assertThat(plan.skips().get(SkipReason.SUPERSEDED)).hasSize(20);
    }

    @Test
    void skipMissedFiresNoMissedInstantButAnOnTimeOne() {
        PeriodicJob job = job("skip", MisfirePolicy.SKIP_MISSED, 10, Duration.ofHours(1));

        CatchUpPlan missedToo = CatchUpPlan.of(List.of(job), List.of(), LATEST, MISSED, NOW);
        CatchUpPlan onTime = CatchUpPlan.of(List.of(job), List.of(), LATEST,
                new Missed(MISSED.passedOver(), true, false, 0), NOW);

        assertThat(missedToo.fires()).isEmpty();
        assertThat(missedToo.skips().get(SkipReason.MISSED)).hasSize(21);
        assertThat(onTime.fires().keySet()).containsExactly(LATEST);
        assertThat(onTime.skips().get(SkipReason.MISSED)).hasSize(20);
    }

    @Test
    void fireAllMissedFiresTheMostRecentMaxCatchUpInsideTheWindowOldestFirst() {
        // the window reaches back to 10:05:30: 10:00-10:05 are outside it; of 10:06-10:20, the last 4 fire
        CatchUpPlan plan = CatchUpPlan.of(List.of(job("all", MisfirePolicy.FIRE_ALL_MISSED, 4, Duration.ofMinutes(15))),
                List.of(), LATEST, MISSED, NOW);

        assertThat(plan.fires().keySet()).containsExactly(Instant.parse("2027-05-01T10:17:00Z"),
                Instant.parse("2027-05-01T10:18:00Z"), Instant.parse("2027-05-01T10:19:00Z"), LATEST);
        assertThat(plan.skips().get(SkipReason.OUTSIDE_CATCH_UP_WINDOW).keySet())
                .containsExactlyElementsOf(EVERY_MINUTE.between(Instant.parse("2027-05-01T10:00:00Z"),
                        Instant.parse("2027-05-01T10:06:00Z"), 10).stream().map(ScheduledInstant::at).toList());
        assertThat(plan.skips().get(SkipReason.BEYOND_MAX_CATCH_UP)).hasSize(11);
        assertThat(plan.skipped()).isEqualTo(17);
    }

    @Test
    void jobsOfOneScheduleFollowTheirOwnWindowAndMaximum() {
        PeriodicJob few = job("few", MisfirePolicy.FIRE_ALL_MISSED, 2, Duration.ofHours(1));
        PeriodicJob many = job("many", MisfirePolicy.FIRE_ALL_MISSED, 5, Duration.ofHours(1));

        CatchUpPlan plan = CatchUpPlan.of(List.of(few, many), List.of("paused"), LATEST, MISSED, NOW);

        Map<Instant, List<String>> fires = new TreeMap<>();
        plan.fires().forEach((at, jobs) -> fires.put(at, jobs.stream().map(PeriodicJob::name).toList()));
        assertThat(fires.values()).containsExactly(List.of("many"), List.of("many"), List.of("many"),
                List.of("few", "many"), List.of("few", "many"));
        assertThat(plan.skips().get(SkipReason.PAUSED)).as("the paused job's missed instants").hasSize(20);
    }

    @Test
    void anOrdinaryFireSkipsOnlyTheTimesOfADaylightSavingGap() {
        Timetable paris = Timetable.of(Schedule.unixCron("30 2 * * *", ZoneId.of("Europe/Paris"))
                .onGap(dev.onebeat.job.DstPolicy.Gap.SKIP));
        Instant latest = Instant.parse("2027-03-29T00:30:00Z");
        List<ScheduledInstant> gap = paris.between(Instant.parse("2027-03-27T02:00:00Z"), latest, 10).stream()
                .filter(instant -> !instant.fires()).toList();

        CatchUpPlan plan = CatchUpPlan.of(List.of(job("paris", MisfirePolicy.FIRE_ALL_MISSED, 10, Duration.ofHours(1))),
                List.of(), latest, new Missed(gap, false, false, 0), latest);

        assertThat(gap).hasSize(1);
        assertThat(plan.fires().keySet()).containsExactly(latest);
        assertThat(plan.skips().get(SkipReason.DST_GAP).keySet()).containsExactly(gap.get(0).at());
    }

    @Test
    void eachMissedInstantIsPlannedWithTheMembersOfThatInstant() {
        PeriodicJob joined = job("joined", MisfirePolicy.FIRE_ALL_MISSED, 100, Duration.ofHours(1));
        PeriodicJob left = job("left", MisfirePolicy.FIRE_ALL_MISSED, 100, Duration.ofHours(1));
        Instant change = Instant.parse("2027-05-01T10:15:00Z");

        CatchUpPlan plan = CatchUpPlan.of(new CatchUpPlan.Membership() {
            @Override
            public List<PeriodicJob> firing(Instant at) {
                return at.isBefore(change) ? List.of(left) : List.of(joined);
            }

            @Override
            public List<String> paused(Instant at) {
                return List.of();
            }
        }, LATEST, MISSED, NOW);

        Map<String, List<Instant>> fired = new TreeMap<>();
        plan.fires().forEach((at, jobs) -> jobs.forEach(job -> fired.computeIfAbsent(job.name(),
                name -> new java.util.ArrayList<>()).add(at)));
        assertThat(fired.get("joined")).as("from when it joined, the fire's own instant included").hasSize(6)
                .allSatisfy(at -> assertThat(at).isAfterOrEqualTo(change));
        assertThat(fired.get("left")).as("until it left").hasSize(15).allSatisfy(at -> assertThat(at).isBefore(change));
        assertThat(plan.skipped()).isZero();
    }

    @Test
    void whenTheHistoryCannotBeReadAJobThatJoinedDuringTheOutageHasNothingOfTheInstantsBeforeIt() {
        PeriodicJob stayed = job("stayed", MisfirePolicy.FIRE_ALL_MISSED, 100, Duration.ofHours(1));
        PeriodicJob joined = job("joined", MisfirePolicy.FIRE_ALL_MISSED, 100, Duration.ofHours(1));
        Instant joinedAt = Instant.parse("2027-05-01T10:14:30Z");

        CatchUpPlan plan = CatchUpPlan.of(CatchUpPlan.Membership.fromOwnInstant(List.of(stayed, joined),
                List.of("paused-joined"), List.of("elsewhere-joined"),
                Map.of("stayed", Instant.parse("2027-01-01T00:00:00Z"), "joined", joinedAt,
                        "paused-joined", joinedAt, "elsewhere-joined", joinedAt)), LATEST, MISSED, NOW);

        Map<String, List<Instant>> fired = new TreeMap<>();
        plan.fires().forEach((at, jobs) -> jobs.forEach(job -> fired.computeIfAbsent(job.name(),
                name -> new java.util.ArrayList<>()).add(at)));
        assertThat(fired.get("stayed")).hasSize(21);
        assertThat(fired.get("joined")).as("10:15 to 10:20, none before it joined").hasSize(6)
                .allSatisfy(at -> assertThat(at).isAfter(joinedAt));
        assertThat(plan.skips().get(SkipReason.PAUSED).values()).as("10:15 to 10:19").hasSize(5)
                .allSatisfy(jobs -> assertThat(jobs).containsExactly("paused-joined"));
        assertThat(plan.skips().get(SkipReason.NOT_REGISTERED).keySet()).as("10:15 to 10:19")
                .containsExactlyElementsOf(EVERY_MINUTE.between(Instant.parse("2027-05-01T10:15:00Z"), LATEST, 10)
                        .stream().map(ScheduledInstant::at).toList());
        assertThat(plan.skipped()).isEqualTo(10);
    }

    @Test
    void aMemberThisReplicaDoesNotRegisterHasEachMissedInstantRecordedSkippedNotDropped() {
        CatchUpPlan plan = CatchUpPlan.of(new CatchUpPlan.Membership() {
            @Override
            public List<PeriodicJob> firing(Instant at) {
                return List.of();
            }

            @Override
            public List<String> paused(Instant at) {
                return List.of();
            }

            @Override
            public List<String> unregistered(Instant at) {
                return at.equals(LATEST) ? List.of() : List.of("elsewhere");
            }
        }, LATEST, MISSED, NOW);

        assertThat(plan.fires()).isEmpty();
        assertThat(plan.skips()).containsOnlyKeys(SkipReason.NOT_REGISTERED);
        assertThat(plan.skips().get(SkipReason.NOT_REGISTERED)).hasSize(20);
        assertThat(SkipReason.NOT_REGISTERED.missed()).as("reported missed").isTrue();
    }

    private static PeriodicJob job(String name, MisfirePolicy policy, int maxCatchUp, Duration window) {
        return Jobs.periodic(name, Schedule.every(Duration.ofMinutes(1))).misfirePolicy(policy).maxCatchUp(maxCatchUp)
                .catchUpWindow(window).execute((JobContext context) -> { });
    }
}
