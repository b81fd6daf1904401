package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @Nested
    class Units {

        @ParameterizedTest
        @CsvSource({
                "250ns, PT0.00000025S",
                "250us, PT0.00025S",
                "500ms, PT0.5S",
                "10s, PT10S",
                "2m, PT2M",
                "1h, PT1H",
                "1d, PT24H",
                "-5s, PT-5S",
                "+5s, PT5S",
        })
        void readsANumberWithItsUnit(String text, Duration expected) {
            assertThat(Durations.parse(text)).isEqualTo(expected);
        }

        @Test
        void readsAUnitInAnyCase() {
            assertThat(Durations.parse("1H")).isEqualTo(Duration.ofHours(1));
            assertThat(Durations.parse("500MS")).isEqualTo(Duration.ofMillis(500));
        }

        @Test
        void readsABareNumberAsMilliseconds() {
            assertThat(Durations.parse("750")).isEqualTo(Duration.ofMillis(750));
        }

        @Test
        void ignoresBlanksAroundTheValueAndBeforeItsUnit() {
            assertThat(Durations.parse(" 10s ")).isEqualTo(Duration.ofSeconds(10));
            assertThat(Durations.parse("10 s")).isEqualTo(Duration.ofSeconds(10));
        }
    }

    @Nested
    class Iso8601 {

        @ParameterizedTest
        @CsvSource({"PT10S, 10000", "PT1.5S, 1500", "pt1m, 60000", "P1DT1S, 86401000", "-PT1S, -1000"})
        void readsTheIsoForm(String text, long millis) {
            assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
        }
    }

    @Nested
    class BadInput {

        @Test
        void refusesTextThatIsNoDurationQuotingItAndTheAcceptedForms() {
            assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("ten seconds"))
                    .withMessage("'ten seconds' is not a duration such as 500ms, 10s, 2m or PT10S");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "5 weeks", "5w", "1.5s", "s", "P", "PT"})
        void refusesEveryOtherForm(String text) {
            assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(text))
                    .withMessageStartingWith("'" + text + "' is not a duration");
        }

        @Test
        void refusesNothingAtAll() {
            assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(null))
                    .withMessageStartingWith("'null' is not a duration");
        }

        @Test
        void refusesADurationTooLongToHold() {
            assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("99999999999999999d"))
                    .withMessage("'99999999999999999d' is too long a duration");
            assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("99999999999999999999"))
                    .withMessage("'99999999999999999999' is too long a duration");
        }
    }
}
