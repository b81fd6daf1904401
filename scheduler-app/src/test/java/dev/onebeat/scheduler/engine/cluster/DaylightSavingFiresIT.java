package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A real scheduler JVM crossing a spring-forward and a fall-back: its zones ({@link ShiftedZones})
 * change their clocks by 20 s at an instant T the replica chooses during its start, about a minute ahead, and its jobs
 * ({@link DaylightSavingJobs}) fire every 5 s of wall-clock time from 10 s before the change to the end
 * of its minute, under each policy. The ledger must hold exactly the instants the rules of docs/schedules.md give,
 * worked out here by hand as offsets from T, each with its own key; nothing else in the 30 s around T.
 */
@ExtendWith(PostgresExtension.class)
class DaylightSavingFiresIT {

    /** Per job, the seconds from T of the instants it must fire in [T - 30 s, T + 30 s]. */
    private static final Map<String, List<Long>> EXPECTED = Map.of(
            // the 10 s before T exist; the 20 s after T do not and fire 20 s later, where the cron matches nothing
            "gap-shift", List.of(-10L, -5L, 0L, 5L, 10L, 15L),
            // only the times that exist fire
            "gap-skip", List.of(-10L, -5L),
            // the 10 s before happen once; the 20 s after first at T - 20 s to T - 5 s, again at T to T + 15 s
            "overlap-first", List.of(-30L, -25L, -20L, -15L, -10L, -5L),
            "overlap-last", List.of(-30L, -25L, 0L, 5L, 10L, 15L),
            "overlap-both", List.of(-30L, -25L, -20L, -15L, -10L, -5L, 0L, 5L, 10L, 15L),
            // every 5 s of the clock, so every 5 s of real time, whatever the policy says
            "overlap-elapsed", LongStream.rangeClosed(-6, 6).map(step -> step * 5).boxed().toList());

    @Test
    void realSchedulerFiresExactlyTheInstantsOfEachPolicyThroughAGapAndAnOverlap(TestDatabase database,
            @TempDir Path dir) throws Exception {
        Path transitionFile = dir.resolve("transition");
        Ledger ledger = new Ledger(database.dataSource());
        Instant t;
        try (Replicas replicas = new Replicas(database, "daylight-saving")) {
            replicas.start("replica-1", "dst", Map.of(ShiftedZones.TRANSITION_PROPERTY, transitionFile.toString()));
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ledger.clusterSize() == 1);
            Instant up = Instant.now();
            ShiftedZones.Transition transition = ShiftedZones.readTransition(transitionFile).orElseThrow(
                    () -> new AssertionError("the replica is up and has not chosen T"));
            t = Instant.ofEpochSecond(transition.epochSecond());
            assertThat(up).as("the replica is up before the first instant of the test, T - 30 s; T = %s, chosen %s,"
                            + " the rest of the start after it took %s", t, transition.chosenAt(),
                    Duration.between(transition.chosenAt(), up)).isBefore(t.minusSeconds(30));
            Instant around = t;
            await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> Instant.now().isAfter(around.plusSeconds(35))
                            && fired(database, "overlap-elapsed", around).size() >= 13);
        }

        JdbcClient jdbc = JdbcClient.create(database.dataSource());
        for (Map.Entry<String, List<Long>> job : EXPECTED.entrySet()) {
            List<Instant> expected = job.getValue().stream().map(t::plusSeconds).toList();
            assertThat(fired(database, job.getKey(), t)).as("instants of %s around T = %s", job.getKey(), t)
                    .containsExactlyElementsOf(expected);
            for (Instant at : expected) {
                assertThat(jdbc.sql("SELECT idempotency_key FROM onebeat_task WHERE job_name = ? AND scheduled_at = ?")
                        .params(job.getKey(), Timestamp.from(at)).query(String.class).list())
                        .as("task of %s at %s", job.getKey(), at)
                        .containsExactly(IdempotencyKey.of(job.getKey(), at, DaylightSavingJobs.TASK, null).value());
            }
        }
        assertThat(jdbc.sql("""
                        SELECT scheduled_at FROM onebeat_fire_attempt
                        WHERE job_name = 'gap-skip' AND outcome = 'skipped' AND reason = ? ORDER BY scheduled_at""")
                .param("in a daylight-saving gap (gap=skip)").query(Timestamp.class).list().stream()
                .map(Timestamp::toInstant).toList())
                .as("the gap's times recorded as skipped, where gap=shift fires them")
                .containsExactlyElementsOf(EXPECTED.get("gap-shift").stream().filter(second -> second >= 0)
                        .map(t::plusSeconds).toList());
        assertThat(jdbc.sql("SELECT DISTINCT trigger_kind FROM onebeat_fire").query(String.class).list())
                .as("every instant fired on time, none as a misfire").containsExactly("scheduled");
    }

    private static List<Instant> fired(TestDatabase database, String job, Instant t) {
        return JdbcClient.create(database.dataSource()).sql("""
                        SELECT scheduled_at FROM onebeat_fire WHERE job_name = ? AND scheduled_at BETWEEN ? AND ?
                        ORDER BY scheduled_at
                        """)
                .params(job, Timestamp.from(t.minusSeconds(30)), Timestamp.from(t.plusSeconds(30)))
                .query(Timestamp.class).list().stream().map(Timestamp::toInstant).toList();
    }
}
