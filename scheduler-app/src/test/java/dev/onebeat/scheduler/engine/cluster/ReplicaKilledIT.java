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

/** Three scheduler JVMs; the one holding the job's next trigger is killed with SIGKILL. */
@FaultInjection
@ExtendWith(PostgresExtension.class)
class ReplicaKilledIT {

    @Test
    void survivorsFireEverySecondExactlyOnceAfterTheTriggerHolderIsKilled(TestDatabase database) throws Exception {
        Ledger ledger = new Ledger(database.dataSource());
        Instant killedAt;
        Instant allUp;
        String victim;
        long duplicatesSuppressed;
        try (Replicas replicas = new Replicas(database, "replica-killed")) {
            allUp = replicas.startThreeAndAwaitCluster("fanout", ledger);
            await().atMost(Duration.ofMinutes(2)).until(() -> ledger.firesScheduledAfter(allUp) >= 5);

            AtomicReference<String> holder = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .until(() -> holder.updateAndGet(h -> ledger.nodeHoldingNextTrigger()) != null);
            victim = holder.get();
            replicas.kill(victim);
            killedAt = Instant.now();
            assertThat(replicas.isAlive(victim)).isFalse();

            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ledger.firesScheduledAfter(killedAt.plusSeconds(5)) >= 10);
            duplicatesSuppressed = replicas.countLogLines("duplicate fire suppressed");
        }

        // contiguous from when the three are up, through the kill: a starting JVM's slow first fires may let the
        // overlap policy skip an instant before
        List<Ledger.Fire> fires = ledger.assertEverySecondFiredExactlyOnceWithAllTasks(allUp);
        Ledger.Fire firstAfterKill = fires.stream().filter(fire -> fire.firedAt().isAfter(killedAt)).findFirst()
                .orElseThrow();
        Duration gap = Duration.between(killedAt, firstAfterKill.firedAt());
        Duration maxLateness = fires.stream().map(fire -> Duration.between(fire.scheduledAt(), fire.firedAt()))
                .max(Duration::compareTo).orElseThrow();
        assertThat(firstAfterKill.node()).isNotEqualTo(victim);
        System.out.printf("SIGKILL failover: victim=%s killedAt=%s firstFireAfterKill=%s (scheduled %s, by %s) "
                        + "gap=%d ms maxLateness=%d ms fires=%d duplicateFiresSuppressed=%d firesByNode=%s "
                        + "recoveryFires=%d%n",
                victim, killedAt, firstAfterKill.firedAt(), firstAfterKill.scheduledAt(), firstAfterKill.node(),
                gap.toMillis(), maxLateness.toMillis(), fires.size(), duplicatesSuppressed,
                Ledger.firesByNode(fires), fires.stream().filter(f -> f.trigger().equals("recovery")).count());
    }
}
