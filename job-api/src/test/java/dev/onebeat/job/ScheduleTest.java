package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScheduleTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Nested
    class Every {

        @Test
        void fractionalSecondsRejectedNamingFieldAndValue() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Schedule.every(Duration.ofMillis(1500)))
                    .withMessageStartingWith("every must be a whole number of seconds")
                    .withMessageEndingWith("was PT1.5S");
        }

        @ParameterizedTest
        @ValueSource(longs = {0, -10})
        void nonPositiveIntervalRejected(long seconds) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Schedule.every(Duration.ofSeconds(seconds)))
                    .withMessageContaining("every must be")
                    .withMessageEndingWith("was " + Duration.ofSeconds(seconds));
        }

        @Test
        void describedBySecondsWhateverItsDisplayZone() {
            Schedule.Interval interval = Schedule.every(Duration.ofMinutes(1));

            assertThat(interval.describe()).isEqualTo("every 60s");
            assertThat(interval.in(PARIS).describe()).isEqualTo("every 60s");
            assertThat(interval.zone()).isEqualTo(ZoneId.of("UTC"));
        }
    }

    @Nested
    class Cron {

        @Test
        void unixExpressionRejectedWithHint() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Schedule.cron("0 9 * * 1-5"))
                    .withMessage("cron '0 9 * * 1-5' has 5 fields; a Quartz expression has 6 or 7"
                            + " (a 5-field Unix expression needs Schedule.unixCron)");
        }

        @Test
        void blankExpressionRejectedNamingField() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Schedule.cron(" ", PARIS))
                    .withMessage("cron must not be blank, was ' '");
        }

        @Test
        void quartzExpressionIsTrimmedAndIsItsOwnSource() {
            Schedule.Cron cron = Schedule.cron(" 0 0 9 ? * MON-FRI ");

            assertThat(cron.quartzExpression()).isEqualTo("0 0 9 ? * MON-FRI");
            assertThat(cron.source()).isEqualTo("0 0 9 ? * MON-FRI");
            assertThat(cron.zone()).isEqualTo(ZoneId.of("UTC"));
        }

        @Test
        void unixCronKeepsSourceAndSchedulesConvertedExpression() {
            Schedule.Cron cron = Schedule.unixCron("0 8 * * MON-FRI", PARIS);

            assertThat(cron.source()).isEqualTo("0 8 * * MON-FRI");
            assertThat(cron.quartzExpression()).isEqualTo("0 0 8 ? * MON-FRI");
            assertThat(cron.describe()).isEqualTo("cron 0 0 8 ? * MON-FRI Europe/Paris");
        }

        @Test
        void unixCronAndEquivalentQuartzCronDescribeAlike() {
            assertThat(Schedule.unixCron("*/15 * * * *", PARIS).describe())
                    .isEqualTo(Schedule.cron("0 0,15,30,45 * * * ?", PARIS).describe());
        }

        @Test
        void unixCronRejectsQuartzExpressionWithHint() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Schedule.unixCron("0 0 9 * * ?", PARIS))
                    .withMessageContaining("needs Schedule.cron");
        }
    }
}
