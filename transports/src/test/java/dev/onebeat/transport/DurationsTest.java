package dev.onebeat.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void readsTheFormsSpringBootConfigurationAccepts() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse(" 10s ")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1H")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse("250us")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Durations.parse("750")).isEqualTo(Duration.ofMillis(750));
        assertThat(Durations.parse("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("-5s")).isEqualTo(Duration.ofSeconds(-5));
    }

    @Test
    void refusesTextThatIsNoDurationQuotingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("ten seconds"))
                .withMessageContaining("'ten seconds' is not a duration");
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("5 weeks"));
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(""));
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("99999999999999999d"))
                .withMessageContaining("too long a duration");
    }
}
