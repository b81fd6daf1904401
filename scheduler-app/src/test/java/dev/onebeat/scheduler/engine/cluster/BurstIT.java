package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three scheduler JVMs and 2,000 runtime jobs due on the same instants: every job fires every instant
 * exactly once, with its own key, and no fire is attempted twice. The large sizes belong to the
 * benchmark ({@code bench/fire.sh}); this is the smallest burst where batches run side by side.
 */
@ExtendWith(PostgresExtension.class)
class BurstIT {

    private static final int JOBS = 2_000;

    @Test
    void threeReplicasFireEachOfTwoThousandJobsDueOnOneInstantExactlyOnceAtEveryInstant(TestDatabase database)
            throws Exception {
        BurstJobs jobs = new BurstJobs(database.dataSource(), JOBS);
        jobs.store("5s");
        Ledger ledger = new Ledger(database.dataSource());
        List<Instant> instants;
        long duplicatesSuppressed;
        Instant allUp;
        try (Replicas replicas = new Replicas(database, "burst")) {
            allUp = replicas.startThreeAndAwaitCluster("none", ledger);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> jobs.completeInstants(allUp).size() >= 3);
            instants = jobs.completeInstants(allUp).subList(0, 3);
            duplicatesSuppressed = replicas.countLogLines("duplicate fire suppressed");
        }

        assertThat(Duration.between(instants.get(0), instants.get(2))).as("three instants in a row, none skipped")
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(jobs.firesPerInstant(allUp).headMap(instants.get(2), true)).as("no instant fired partly")
                .allSatisfy((instant, fires) -> assertThat(fires).as("fires of %s", instant).isEqualTo(JOBS));
        for (Instant instant : instants) {
            assertThat(jobs.missing(instant)).as("jobs missing at %s", instant).isEmpty();
            assertThat(jobs.wrongTasks(instant)).as("tasks of %s", instant).isEmpty();
        }
        assertThat(duplicatesSuppressed).as("fires attempted twice").isZero();
        for (Instant instant : instants) {
            System.out.printf("burst of %d jobs at %s: %s%n", JOBS, instant, jobs.firesByNodeAndTrigger(instant));
        }
    }
}
