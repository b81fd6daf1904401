package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three scheduler JVMs; the one in the middle of a fire (its transaction open, the job lock held) is
 * killed with SIGKILL. A survivor must re-run that very instant, once, after the lock expires.
 */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class ReplicaKilledMidFireIT {

    @Test
    void fireInterruptedBySigkillIsRecoveredOnceWithItsScheduledInstant(TestDatabase database) throws Exception {
        Ledger ledger = new Ledger(database.dataSource(), ReplicaMain.SLOW_JOB, Duration.ofSeconds(2),
                ReplicaMain.SLOW_ENTITIES);
        Instant killedAt;
        Instant killedInstant;
        Instant allUp;
        String victim;
        try (Replicas replicas = new Replicas(database, "replica-killed-mid-fire")) {
            allUp = replicas.startThreeAndAwaitCluster("slow", ledger);
            await().atMost(Duration.ofMinutes(2)).until(() -> ledger.firesScheduledAfter(allUp) >= 2);

            AtomicReference<Ledger.Executing> executing = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .until(() -> executing.updateAndGet(e -> ledger.fireExecuting()) != null);
            victim = executing.get().node();
            killedInstant = executing.get().scheduledAt();
            replicas.kill(victim);
            killedAt = Instant.now();

            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ledger.firesScheduledAfter(killedAt.plusSeconds(10)) >= 3);
            // an instant whose fire failed under load (its job lock still busy) waits for its next attempt, which only a
            // running replica makes: let the survivors settle every instant they have passed before they stop
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> ledger.unaccounted(allUp).isEmpty());
        }

        // contiguous from when the three are up, through the kill: a starting JVM's slow first fires may let the
        // overlap policy skip an instant before
        List<Ledger.Fire> fires = ledger.assertEverySecondFiredExactlyOnceWithAllTasks(allUp);
        List<Ledger.Fire> recovered = fires.stream().filter(fire -> fire.trigger().equals("recovery")).toList();
        assertThat(recovered).as("recovered by the survivors").allMatch(fire -> !fire.node().equals(victim));
        List<Ledger.Fire> interrupted = recovered.stream().filter(fire -> fire.scheduledAt().equals(killedInstant))
                .toList();
        assertThat(interrupted).as("the interrupted fire is re-run by a survivor as a recovery").hasSize(1);
        // on a loaded machine the victim may still run the instant before (its job lock came late): it is recovered
        // too, once, by a survivor, as every other fire the victim had begun (checked above)
        // the victim may also have acquired the next instant's trigger (Quartz acquires ahead): that instant is
        // recovered too, still once (the ledger's check above), and is the only other one
        assertThat(recovered).as("besides the interrupted fire, at most the instant the victim had acquired")
                .allMatch(fire -> fire.scheduledAt().isBefore(killedAt.plusSeconds(2)));
        Ledger.Fire recovery = interrupted.get(0);
        System.out.printf("SIGKILL mid-fire: victim=%s killedAt=%s recovered instant %s by %s at %s "
                        + "(%d ms after the kill) fires=%d firesByNode=%s%n",
                victim, killedAt, recovery.scheduledAt(), recovery.node(), recovery.firedAt(),
                Duration.between(killedAt, recovery.firedAt()).toMillis(), fires.size(), Ledger.firesByNode(fires));
    }
}
