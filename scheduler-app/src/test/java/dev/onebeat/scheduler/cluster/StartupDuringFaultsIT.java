package dev.onebeat.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class StartupDuringFaultsIT {

    @Test
    void reproduce(TestDatabase database) throws Exception {
        Ledger ledger = new Ledger(database.dataSource());
        try (Replicas replicas = new Replicas(database, "startup-faults")) {
            for (int round = 1; round <= 3; round++) {
                replicas.start("r" + round + "a");
                replicas.start("r" + round + "b", "none");
                DatabaseFaults.killSessions(database.dataSource(), Duration.ofSeconds(15), Duration.ofMillis(250));
                System.out.printf("round %d: a alive=%s b alive=%s%n", round, replicas.isAlive("r" + round + "a"),
                        replicas.isAlive("r" + round + "b"));
            }
            Instant now = Instant.now();
            Thread.sleep(5000);
        }
    }
}
