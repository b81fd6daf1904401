package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RelayBackoffTest {

    private final RelayBackoff backoff = new RelayBackoff(Duration.ofMillis(500), Duration.ofSeconds(15));

    @Test
    void ceilingDoublesFromTheInitialWaitAfterEachFailureUpToTheMax() {
        assertThat(IntStream.rangeClosed(1, 7).mapToObj(backoff::ceiling).map(Duration::toMillis))
                .containsExactly(500L, 1_000L, 2_000L, 4_000L, 8_000L, 15_000L, 15_000L);
    }

    @Test
    void ceilingBeforeAnyFailureIsTheInitialWait() {
        assertThat(backoff.ceiling(0)).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void ceilingStaysAtTheMaxAfterAnyNumberOfFailures() {
        assertThat(backoff.ceiling(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(15));
        assertThat(new RelayBackoff(Duration.ofDays(1), Duration.ofDays(365)).ceiling(40)).isEqualTo(Duration.ofDays(365));
    }

    @Test
    void retryDelayLiesBetweenHalfTheCeilingAndTheCeiling() {
        for (int attempt = 1; attempt <= 8; attempt++) {
            Duration ceiling = backoff.ceiling(attempt);
            for (int i = 0; i < 200; i++) {
                assertThat(backoff.retryDelay(attempt)).isBetween(ceiling.dividedBy(2), ceiling);
            }
        }
    }

    @Test
    void retryDelaysOfOneAttemptAreSpreadOut() {
        assertThat(IntStream.range(0, 50).mapToObj(i -> backoff.retryDelay(3)).distinct().count()).isGreaterThan(10);
    }
}
