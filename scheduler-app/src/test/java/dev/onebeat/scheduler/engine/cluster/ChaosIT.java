package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.FaultInjection;
import dev.onebeat.scheduler.bench.ChaosFault;
import dev.onebeat.scheduler.bench.ChaosOptions;
import dev.onebeat.scheduler.bench.ChaosResult;
import dev.onebeat.scheduler.bench.ChaosRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The short form of {@code bench/chaos.sh}: three replica JVMs (one with its clock 2 s ahead under libfaketime), a
 * private PostgreSQL server and a private Redis broker, and for 40 s every fault in turn at seeded moments — a replica
 * killed with {@code kill -9} and launched again, every database session terminated, the broker killed and started
 * again, PostgreSQL stopped and started again — then 30 s of calm. Every instant of the faults has an outcome, none
 * committed twice, no key in two outbox rows, every task published.
 */
@FaultInjection
class ChaosIT {

    private static final long SEED = 24;

    @Test
    void everyInstantUnderMixedFaultsHasOneOutcomeAndEveryTaskIsPublished() throws Exception {
        ChaosOptions options = ChaosOptions.defaults(SEED, Duration.ofSeconds(40), Duration.ofSeconds(30),
                Duration.ofSeconds(2));
        ChaosResult result = ChaosRun.run(options, Path.of("target", "replicas", "chaos"), System.out);
        result.print(System.out);

        assertThat(result.hardViolations()).as("broken invariants").isEmpty();
        assertThat(result.faults().keySet()).as("faults inflicted").containsExactlyInAnyOrderElementsOf(
                Arrays.asList(ChaosFault.values()));
        assertThat(result.committed()).as("instants committed under the faults").isPositive();
        assertThat(result.skewSeenMillis()).as("how far ahead the skewed replica dates its answers").isNotNull()
                .isGreaterThanOrEqualTo(1000L);
        assertThat(result.lostOnBroker()).as("rows marked published that the broker does not hold").isEmpty();
    }
}
