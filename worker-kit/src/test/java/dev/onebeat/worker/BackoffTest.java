package dev.onebeat.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1));

    @Test
    void ceilingDoublesFromBaseWithEachAttempt() {
        assertThat(backoff.ceiling(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.ceiling(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.ceiling(4)).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void ceilingStopsAtMaxEvenForHugeAttemptNumbers() {
        assertThat(backoff.ceiling(7)).isEqualTo(Duration.ofMinutes(1));
        assertThat(backoff.ceiling(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void delayIsAFullJitterBetweenZeroAndTheCeiling() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(backoff.delay(3)).isBetween(Duration.ZERO, Duration.ofSeconds(4));
        }
    }

    @Test
    void maxBelowBaseIsRejected() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessage("backoff max must be at least base PT2S, was PT1S");
    }
}
