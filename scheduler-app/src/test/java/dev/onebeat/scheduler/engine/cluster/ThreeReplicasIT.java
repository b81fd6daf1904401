package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.EmptyDatabase;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Three scheduler JVMs on one database, a job every second fanning out to 100 entities. */
// empty, not the migrated template: three replicas starting together must race to create the tables (SerializedLiquibase)
@EmptyDatabase
@ExtendWith(PostgresExtension.class)
class ThreeReplicasIT {

    @Test
    void everyScheduledSecondFiresExactlyOnceAcrossThreeReplicas(TestDatabase database) throws Exception {
        Ledger ledger = new Ledger(database.dataSource());
        List<Ledger.Fire> fires;
        Instant allUp;
        long duplicatesSuppressed;
        try (Replicas replicas = new Replicas(database, "three-replicas")) {
            allUp = replicas.startThreeAndAwaitCluster("fanout", ledger);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ledger.firesScheduledAfter(allUp) >= 22);
            duplicatesSuppressed = replicas.countLogLines("duplicate fire suppressed");
        }

        // every second once from when the three are up; before, while a JVM still starts, its first fires can take
        // seconds on a loaded machine and the job's overlap policy (buffer-one) skips an instant, as it says it does
        fires = ledger.assertEverySecondFiredExactlyOnceWithAllTasks(allUp);
        assertThat(fires.size()).isGreaterThanOrEqualTo(22);
        System.out.printf("three replicas: fires=%d (every second from %s to %s, once each) tasks=%d "
                        + "duplicateFiresSuppressed=%d firesByNode=%s%n",
                fires.size(), fires.get(0).scheduledAt(), fires.get(fires.size() - 1).scheduledAt(),
                fires.size() * ReplicaMain.ENTITIES, duplicatesSuppressed, Ledger.firesByNode(fires));
    }
}
