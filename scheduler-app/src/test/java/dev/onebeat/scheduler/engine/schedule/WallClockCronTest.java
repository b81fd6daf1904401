package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WallClockCronTest {

    /** Quartz expressions, and whether their minute or hour field takes every value. */
    static Stream<Arguments> fields() {
        return Stream.of(
                Arguments.of("0 * 3 * * ?", true),
                Arguments.of("0 */1 3 * * ?", true),
                Arguments.of("0 0/1 3 * * ?", true),
                Arguments.of("0 0-59 3 * * ?", true),
                Arguments.of("0 0-59/1 3 * * ?", true),
                Arguments.of("0 0-29,30-59 3 * * ?", true),
                Arguments.of("0 30-29 3 * * ?", true),
                Arguments.of("0 0 * * * ?", true),
                Arguments.of("0 0 */1 * * ?", true),
                Arguments.of("0 0 0/1 * * ?", true),
                Arguments.of("0 0 0-23 * * ?", true),
                Arguments.of("0 0 0-11,12-23 * * ?", true),
                Arguments.of("0 0 12-11 * * ?", true),
                Arguments.of("0 0,15,30,45 * * * ?", true),
                Arguments.of("0 30 * ? * MON", true),
                Arguments.of("0 0/15 3 * * ?", false),
                Arguments.of("0 30 2 * * ?", false),
                Arguments.of("0 1-59 3 * * ?", false),
                Arguments.of("0 0 0-22 * * ?", false),
                Arguments.of("0 0 0/2 * * ?", false),
                Arguments.of("0 0 1/1 * * ?", false),
                Arguments.of("0 0 22-2 * * ?", false),
                Arguments.of("0 0 22-2/2 * * ?", false),
                Arguments.of("0 0,30 0-3 * * ?", false),
                Arguments.of("* 0 0 * * ?", false));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("fields")
    void countsElapsedTimeWhenTheMinuteOrTheHourFieldTakesEveryValue(String expression, boolean elapsed) {
        assertThat(new WallClockCron(expression).countsElapsedTime()).isEqualTo(elapsed);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("fields")
    void countsElapsedTimeExactlyWhenQuartzFiresEveryMinuteOfAnHourOrEveryHourOfADay(String expression,
            boolean elapsed) {
        // Quartz itself decides what the fields mean, wrap-round ranges included
        WallClockCron cron = new WallClockCron(expression);
        Set<Integer> minutes = new HashSet<>();
        Set<Integer> hours = new HashSet<>();
        LocalDateTime week = LocalDateTime.parse("2027-01-04T00:00");
        for (LocalDateTime t = cron.next(week.minusNanos(1)); t.isBefore(week.plusDays(7)); t = cron.next(t)) {
            minutes.add(t.getMinute());
            hours.add(t.getHour());
        }

        assertThat(minutes.size() == 60 || hours.size() == 24).isEqualTo(elapsed);
    }

    @Test
    void matchesWallClockTimesWhateverAZoneWouldSayOfThem() {
        // a time that does not exist in Paris: the matcher knows no zone
        assertThat(new WallClockCron("0 30 2 * * ?").next(LocalDateTime.parse("2027-03-28T00:00")))
                .isEqualTo(LocalDateTime.parse("2027-03-28T02:30"));
    }

    @Test
    void nextIsStrictlyAfterTheTimeGiven() {
        WallClockCron halfPastTwo = new WallClockCron("0 30 2 * * ?");

        assertThat(halfPastTwo.next(LocalDateTime.parse("2027-06-01T02:29:59.999999999")))
                .isEqualTo(LocalDateTime.parse("2027-06-01T02:30"));
        assertThat(halfPastTwo.next(LocalDateTime.parse("2027-06-01T02:30")))
                .isEqualTo(LocalDateTime.parse("2027-06-02T02:30"));
    }

    @Test
    void noneAfterTheLastYearTheExpressionNames() {
        assertThat(new WallClockCron("0 0 12 1 1 ? 2027").next(LocalDateTime.parse("2027-06-01T00:00"))).isNull();
    }

    @Test
    void invalidExpressionIsRejectedNamingIt() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new WallClockCron("0 60 * * * ?"))
                .withMessageStartingWith("'0 60 * * * ?' is not a valid Quartz cron expression: ");
    }
}
