package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Three scheduler JVMs, 2,000 runtime jobs due on the same instants; the replica firing them is killed
 * with SIGKILL when part of an instant's batches have committed. The survivors must fire the rest of
 * that instant once, as a recovery with the instant's own time, and go on with the next instants.
 *
 * <p>Each claim statement sleeps a quarter of a second (a statement trigger in the test database), so
 * a burst lasts a couple of seconds and the kill lands in its middle.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class BurstKilledIT {

    private static final int JOBS = 2_000;

    @Test
    void replicaKilledMidBurstLeavesTheRestOfItsInstantToARecoveryAndTheNextInstantsToTheSurvivors(
            TestDatabase database) throws Exception {
        BurstJobs jobs = new BurstJobs(database.dataSource(), JOBS);
        jobs.store("10s");
        slowDownClaims(JdbcClient.create(database.dataSource()));
        Ledger ledger = new Ledger(database.dataSource());
        Instant interrupted;
        String victim;
        try (Replicas replicas = new Replicas(database, "burst-killed")) {
            Instant allUp = replicas.startThreeAndAwaitCluster("none", ledger, "--onebeat.fire.batch.jobs=100",
                    "--onebeat.fire.batch.max-jobs=100", "--onebeat.fire.batch.threads=2");
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> !jobs.completeInstants(allUp).isEmpty());

            AtomicReference<Instant> partly = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
                Map.Entry<Instant, Long> last = jobs.firesPerInstant(allUp).entrySet().stream()
                        // at most half committed, so that the kill surely lands before the last batch
                        .filter(entry -> entry.getValue() > 0 && entry.getValue() <= JOBS / 2).findFirst().orElse(null);
                partly.set(last == null ? null : last.getKey());
                return last != null && jobs.nodeFiringTheSchedule() != null;
            });
            victim = jobs.nodeFiringTheSchedule();
            replicas.kill(victim);
            interrupted = partly.get();
            System.out.printf("killed %s while firing %s: %s%n", victim, interrupted,
                    jobs.firesByNodeAndTrigger(interrupted));

            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> jobs.completeInstants(interrupted.minusSeconds(1)).size() >= 3);
        }

        List<Instant> complete = jobs.completeInstants(interrupted.minusSeconds(1));
        assertThat(complete.get(0)).as("the interrupted instant was completed").isEqualTo(interrupted);
        Map<String, Long> interruptedFires = jobs.firesByNodeAndTrigger(interrupted);
        System.out.printf("after recovery %s: %s; next %s: %s%n", interrupted, interruptedFires, complete.get(1),
                jobs.firesByNodeAndTrigger(complete.get(1)));
        assertThat(interruptedFires.keySet()).as("the rest of the instant was fired by a survivor as a recovery")
                .anyMatch(key -> key.endsWith(" recovery") && !key.startsWith(victim + " "))
                .allMatch(key -> key.equals(victim + " scheduled") || key.endsWith(" recovery"));
        for (Instant instant : complete.subList(0, 3)) {
            assertThat(jobs.missing(instant)).as("jobs missing at %s", instant).isEmpty();
            assertThat(jobs.wrongTasks(instant)).as("tasks of %s", instant).isEmpty();
        }
        assertThat(Duration.between(complete.get(0), complete.get(2))).as("no instant skipped after the kill")
                .isEqualTo(Duration.ofSeconds(20));
    }

    private static void slowDownClaims(JdbcClient jdbc) {
        jdbc.sql("""
                CREATE FUNCTION slow_claim() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(0.25); RETURN NULL; END $$""").update();
        jdbc.sql("""
                CREATE TRIGGER slow_claim BEFORE INSERT ON onebeat_fire FOR EACH STATEMENT
                EXECUTE FUNCTION slow_claim()""").update();
    }
}
