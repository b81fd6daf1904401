package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryPolicyTest {

    private static final RetryPolicy POLICY = new RetryPolicy(10, Duration.ofSeconds(10), Duration.ofMinutes(1));

    @ParameterizedTest(name = "attempt {0} waits {1} to {2} ms")
    @CsvSource(textBlock = """
            2,  5000, 10000
            3, 10000, 20000
            4, 20000, 40000
            5, 30000, 60000
            9, 30000, 60000
            """)
    void eachWaitDoublesUpToTheLongestAndIsSpreadOverItsUpperHalf(int attempt, long fromMillis, long toMillis) {
        assertThat(POLICY.delayBefore(attempt, 0.0)).isEqualTo(Duration.ofMillis(fromMillis));
        assertThat(POLICY.delayBefore(attempt, 0.999_999)).isBetween(Duration.ofMillis(toMillis - 1), Duration.ofMillis(toMillis));
        assertThat(POLICY.delayBefore(attempt, 0.5)).isEqualTo(Duration.ofMillis((fromMillis + toMillis) / 2));
    }

    @Test
    void aVeryLateAttemptWaitsTheLongestWithoutOverflowing() {
        assertThat(new RetryPolicy(100, Duration.ofSeconds(1), Duration.ofHours(1)).delayBefore(100, 0.0))
                .isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void theDefaultIsThreeAttemptsTenSecondsApartAtFirst() {
        assertThat(RetryPolicy.DEFAULT.attempts()).isEqualTo(3);
        assertThat(RetryPolicy.DEFAULT.delayBefore(2, 0.0)).isEqualTo(Duration.ofSeconds(5));
        assertThat(RetryPolicy.NONE.attempts()).isEqualTo(1);
    }

    @Test
    void badValuesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .hasMessage("attempts must be 1 to 100, was 0");
        assertThatThrownBy(() -> new RetryPolicy(101, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .hasMessage("attempts must be 1 to 100, was 101");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessage("backoff must be positive, was PT0S");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessage("maxBackoff must be at least backoff (PT2S), was PT1S");
        assertThatThrownBy(() -> POLICY.delayBefore(1, 0.5)).hasMessageContaining("not a retry");
    }

    @Test
    void aLongerFirstWaitRaisesTheLongestToIt() {
        assertThat(RetryPolicy.DEFAULT.withBackoff(Duration.ofMinutes(10)).maxBackoff()).isEqualTo(Duration.ofMinutes(10));
    }
}
