package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.operate.admin.RuntimeJobs;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.quartz.Scheduler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Every replica is down for eight seconds (the scheduler held in standby, past a one-second misfire
 * threshold) while jobs with each misfire policy are due every second: afterwards every instant of every
 * job has one outcome, a committed fire or a skip with the reason its policy gives, and exactly the
 * instants the policy says fire. Two hundred runtime jobs under {@code fire-all-missed} with a
 * max-catch-up of 3 share one schedule with {@code all-missed}: three missed instants fire, spaced.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// closes the context, and its running scheduler, before the extension drops the database
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO,
        "spring.quartz.properties.org.quartz.jobStore.misfireThreshold=1000",
        "onebeat.fire.catch-up-spacing=700ms",
        "onebeat.jobs[0].name=once-now", "onebeat.jobs[0].every=1s", "onebeat.jobs[0].task=t",
        "onebeat.jobs[1].name=all-missed", "onebeat.jobs[1].every=1s", "onebeat.jobs[1].task=t",
        "onebeat.jobs[1].misfire=fire-all-missed", "onebeat.jobs[1].max-catch-up=3",
        "onebeat.jobs[2].name=skip", "onebeat.jobs[2].every=1s", "onebeat.jobs[2].task=t",
        "onebeat.jobs[2].misfire=skip-missed"})
class MisfireIT {

    private static final int BULK = 200;
    private static final Duration OUTAGE = Duration.ofSeconds(8);
    private static final RowMapper<Instant> INSTANT = (rs, row) -> rs.getTimestamp(1).toInstant();


    @Autowired
    Scheduler scheduler;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    RuntimeJobs runtimeJobs;

    private Instant standbyFrom;
    private Instant standbyUntil;

    @BeforeAll
    void outage() throws Exception {
        for (int i = 0; i < BULK; i++) {
            runtimeJobs.create(Definition.builder("bulk-" + i).every("1s").task("t")
                    .misfire("fire-all-missed").maxCatchUp(3).build());
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> committed("skip").size() >= 2
                && committed("all-missed").size() >= 2 && committed("once-now").size() >= 2
                && committedCount("bulk-%") >= 2L * BULK);
        scheduler.standby();
        standbyFrom = Instant.now();
        // the outage itself: nothing may fire while the scheduler stands by
        Thread.sleep(OUTAGE.toMillis());
        // back half-way between two instants: a replica coming back right at an instant fires that one on time,
        // and the latest missed instant would then be an on-time fire, not the misfire this test is about
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                .until(() -> Instant.now().getNano() / 1_000_000 / 100 == 5);
        standbyUntil = Instant.now();
        scheduler.start();
        Instant after = standbyUntil.plusSeconds(4);
        await().atMost(Duration.ofSeconds(60)).until(() -> committed("skip").stream().anyMatch(after::isBefore)
                && committed("all-missed").stream().anyMatch(after::isBefore)
                && committed("once-now").stream().anyMatch(after::isBefore)
                && committedCount("bulk-%") > 0 && bulkAfter(after) == BULK);
    }

    @Test
    void fireOnceNowFiresTheLatestMissedInstantAndSkipsTheEarlierOnesAsSuperseded() {
        List<Instant> misfires = committedBy("once-now", "misfire");

        assertThat(misfires).hasSize(1);
        // the most recent instant missed: the one due just before the scheduler came back
        assertThat(misfires.get(0)).isAfter(standbyUntil.minusSeconds(2)).isBefore(standbyUntil.plusSeconds(1));
        assertThat(outage("once-now")).allSatisfy(instant -> assertThat(outcome("once-now", instant))
                .isIn("misfire", "skipped: missed, a later instant fired"));
        assertThat(skipped("once-now", "missed, a later instant fired")).hasSizeGreaterThanOrEqualTo(5);
    }

    @Test
    void skipMissedFiresNothingOfTheOutageAndRecordsEachInstantSkipped() {
        // Quartz works the misfire out when it next looks for triggers: normally before the next instant, and the
        // misfire then stands for the outage's last instant, which skip-missed skips. On a loaded machine it may look
        // after that instant, and the misfire stands for it: an instant after the outage, which fires.
        assertThat(committedBy("skip", "misfire")).as("skip's fires for an instant of the outage")
                .noneMatch(instant -> instant.isBefore(standbyUntil));
        assertThat(outage("skip")).allSatisfy(instant -> assertThat(outcome("skip", instant))
                .isEqualTo("skipped: missed (misfire policy skip-missed)"));
    }

    @Test
    void fireAllMissedFiresTheThreeMostRecentMissedInstantsSpacedAndSkipsTheOthers() {
        List<Instant> misfires = committedBy("all-missed", "misfire");

        assertThat(misfires).hasSize(3);
        assertThat(Duration.between(misfires.get(0), misfires.get(2))).isEqualTo(Duration.ofSeconds(2));
        assertThat(skipped("all-missed", "missed, beyond max-catch-up")).hasSizeGreaterThanOrEqualTo(4)
                .allSatisfy(instant -> assertThat(instant).isBefore(misfires.get(0)));
        List<Instant> began = jdbc.sql("""
                        SELECT fired_at FROM onebeat_fire WHERE job_name = 'all-missed' AND trigger_kind = 'misfire'
                        ORDER BY scheduled_at""").query(INSTANT).list();
        for (int i = 1; i < began.size(); i++) {
            assertThat(Duration.between(began.get(i - 1), began.get(i))).as("catch-up spacing")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(650));
        }
    }

    @Test
    void twoHundredJobsSharingTheScheduleEachCatchUpThreeInstantsOnce() {
        Map<String, Long> misfires = jdbc.sql("""
                        SELECT job_name, count(*) FROM onebeat_fire WHERE job_name LIKE 'bulk-%' AND trigger_kind = 'misfire'
                        GROUP BY job_name""")
                .query((rs, row) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        long instants = jdbc.sql("""
                        SELECT count(DISTINCT scheduled_at) FROM onebeat_fire
                        WHERE job_name LIKE 'bulk-%' AND trigger_kind = 'misfire'""").query(Long.class).single();

        assertThat(misfires).hasSize(BULK).allSatisfy((job, count) -> assertThat(count).isEqualTo(3));
        assertThat(instants).isEqualTo(3);
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name LIKE 'bulk-%'").query(Long.class).single())
                .as("one task per committed fire").isEqualTo(committedCount("bulk-%"));
    }

    @Test
    void everyInstantOfEveryJobHasExactlyOneOutcome() {
        for (String job : List.of("once-now", "all-missed", "skip", "bulk-0", "bulk-199")) {
            List<Instant> instants = jdbc.sql("""
                            SELECT scheduled_at FROM onebeat_fire WHERE job_name = :job AND run_id = ''
                            UNION ALL
                            SELECT scheduled_at FROM onebeat_fire_attempt WHERE job_name = :job AND outcome = 'skipped'
                            ORDER BY 1""").param("job", job).query(INSTANT).list();
            List<Instant> expected = IntStream.range(0, instants.size())
                    .mapToObj(i -> instants.get(0).plusSeconds(i)).toList();
            assertThat(instants).as(job + ": one outcome per instant, none missing").containsExactlyElementsOf(expected);
            System.out.printf("outage %s to %s, %s: %s%n", standbyFrom, standbyUntil, job, jdbc.sql("""
                            SELECT string_agg(outcome || ' ' || n, ', ' ORDER BY outcome) FROM (
                                SELECT trigger_kind AS outcome, count(*) AS n FROM onebeat_fire
                                WHERE job_name = :job AND scheduled_at BETWEEN :from AND :until GROUP BY trigger_kind
                                UNION ALL
                                SELECT 'skipped (' || reason || ')', count(*) FROM onebeat_fire_attempt
                                WHERE job_name = :job AND outcome = 'skipped' AND scheduled_at BETWEEN :from AND :until
                                GROUP BY reason) o""")
                    .param("job", job).param("from", java.sql.Timestamp.from(standbyFrom))
                    .param("until", java.sql.Timestamp.from(standbyUntil.plusSeconds(1))).query(String.class).single());
        }
    }

    private List<Instant> outage(String job) {
        // instants well inside the outage, clear of fires already under way at its edges
        List<Instant> instants = new ArrayList<>();
        for (Instant at = standbyFrom.truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
             at.isBefore(standbyUntil.minusSeconds(2)); at = at.plusSeconds(1)) {
            instants.add(at);
        }
        assertThat(instants).as("the outage's instants of " + job).hasSizeGreaterThanOrEqualTo(4);
        return instants;
    }

    private String outcome(String job, Instant instant) {
        List<String> outcomes = jdbc.sql("""
                        SELECT trigger_kind FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ? AND run_id = ''
                        UNION ALL
                        SELECT 'skipped: ' || reason FROM onebeat_fire_attempt
                        WHERE job_name = ? AND scheduled_at = ? AND outcome = 'skipped'""")
                .params(job, java.sql.Timestamp.from(instant), job, java.sql.Timestamp.from(instant)).query(String.class).list();
        assertThat(outcomes).as(job + " at " + instant).hasSize(1);
        return outcomes.get(0);
    }

    private List<Instant> committed(String job) {
        return jdbc.sql("SELECT scheduled_at FROM onebeat_fire WHERE job_name = ? ORDER BY scheduled_at")
                .param(job).query(INSTANT).list();
    }

    private List<Instant> committedBy(String job, String trigger) {
        return jdbc.sql("""
                        SELECT scheduled_at FROM onebeat_fire WHERE job_name = ? AND trigger_kind = ?
                        ORDER BY scheduled_at""").params(job, trigger).query(INSTANT).list();
    }

    private List<Instant> skipped(String job, String reason) {
        return jdbc.sql("""
                        SELECT scheduled_at FROM onebeat_fire_attempt WHERE job_name = ? AND outcome = 'skipped'
                        AND reason = ? ORDER BY scheduled_at""").params(job, reason).query(INSTANT).list();
    }

    private long committedCount(String pattern) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name LIKE ?").param(pattern).query(Long.class)
                .single();
    }

    private long bulkAfter(Instant after) {
        return jdbc.sql("SELECT count(DISTINCT job_name) FROM onebeat_fire WHERE job_name LIKE 'bulk-%' AND scheduled_at > ?")
                .param(java.sql.Timestamp.from(after)).query(Long.class).single();
    }
}
