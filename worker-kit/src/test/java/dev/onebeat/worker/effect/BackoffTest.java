package dev.onebeat.worker.effect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
    private final SplittableRandom random = new SplittableRandom(7);

    @Test
    void delayDoublesPerAttemptWithinHalfAndAllOfTheCeiling() {
        for (int i = 0; i < 100; i++) {
            assertThat(backoff.delay(1, random)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
            assertThat(backoff.delay(3, random)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(4));
        }
    }

    @Test
    void delayIsCappedAtTheMaximumEvenForHugeAttemptNumbers() {
        assertThat(backoff.delay(1_000, random)).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(30));
    }

    @Test
    void maximumBelowTheBaseIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .withMessage("backoff max must be at least the base PT2S, was PT1S");
    }
}
