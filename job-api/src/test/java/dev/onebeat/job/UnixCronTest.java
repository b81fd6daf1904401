package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.text.ParseException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quartz.CronExpression;

class UnixCronTest {

    static Stream<Arguments> conversions() {
        return Stream.of(
                arguments("0 0 * * 0", "0 0 0 ? * SUN"),
                arguments("0 0 * * 7", "0 0 0 ? * SUN"),
                arguments("0 9 * * 1-5", "0 0 9 ? * MON-FRI"),
                arguments("*/15 * * * *", "0 0,15,30,45 * * * ?"),
                arguments("0 0 1 * *", "0 0 0 1 * ?"),
                arguments("30 8 * * MON-FRI", "0 30 8 ? * MON-FRI"),
                arguments("0 0 * * 5-7", "0 0 0 ? * SUN,FRI,SAT"),
                arguments("0 12 * JAN,JUL *", "0 0 12 * 1,7 ?"),
                arguments("0 0 1-7 * *", "0 0 0 1-7 * ?"),
                arguments("5 4 * * sun", "0 5 4 ? * SUN"),
                arguments("1,2,3,5,8,13 0 * * *", "0 1-3,5,8,13 0 * * ?"),
                arguments("0 6,7,18 * * sat,SUN", "0 0 6,7,18 ? * SUN,SAT"),
                arguments("0-30/10 * * * *", "0 0,10,20,30 * * * ?"),
                arguments("10/20 * * * *", "0 10,30,50 * * * ?"),
                arguments("0 */6 * * *", "0 0 0,6,12,18 * * ?"),
                arguments("0 0 */2 * *", "0 0 0 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31 * ?"),
                arguments("0 0 * * 1/2", "0 0 0 ? * SUN,MON,WED,FRI"),
                arguments("0 0 * * mon-wed,fri", "0 0 0 ? * MON-WED,FRI"),
                arguments("0 0 29 2 *", "0 0 0 29 2 ?"),
                arguments("0 0 31 * *", "0 0 0 31 * ?"),
                arguments("15 10 * feb-apr,oct *", "0 15 10 * 2-4,10 ?"),
                arguments("0 0 1 */3 *", "0 0 0 1 1,4,7,10 ?"),
                arguments("* * * * *", "0 * * * * ?"),
                arguments("0-59 0-23 1-31 1-12 0-6", "0 * * * * ?"),
                arguments("0 0 * * 0-7", "0 0 0 * * ?"),
                arguments("0 0 1-31 * MON", "0 0 0 * * ?"),
                arguments("0 0 1 * 0-7", "0 0 0 * * ?"),
                arguments("0 0 * * MON", "0 0 0 ? * MON"),
                arguments("0 0 ? * ?", "0 0 0 * * ?"),
                arguments("0 0 15 * ?", "0 0 0 15 * ?"),
                arguments("0 0 ? * TUE", "0 0 0 ? * TUE"),
                arguments("@yearly", "0 0 0 1 1 ?"),
                arguments("@annually", "0 0 0 1 1 ?"),
                arguments("@monthly", "0 0 0 1 * ?"),
                arguments("@weekly", "0 0 0 ? * SUN"),
                arguments("@daily", "0 0 0 * * ?"),
                arguments("@midnight", "0 0 0 * * ?"),
                arguments("@hourly", "0 0 * * * ?"),
                arguments("  @DAILY\t", "0 0 0 * * ?"),
                arguments("\t 0  9 *\t* 1-5 \n", "0 0 9 ? * MON-FRI"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("conversions")
    void convertsToCanonicalQuartzExpression(String unix, String quartz) {
        assertThat(UnixCron.toQuartz(unix)).isEqualTo(quartz);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conversions")
    void quartzFiresAtTheSameMinutesAsUnixCron(String unix, String quartz) throws ParseException {
        List<Instant> expected = ReferenceCron.parse(unix).fires();

        assertThat(expected).isNotEmpty();
        assertThat(quartzFires(UnixCron.toQuartz(unix))).isEqualTo(expected);
    }

    @Test
    void schedulesTheConvertedExpression() {
        Schedule.Cron schedule = Schedule.unixCron(" 0 9 * * 1-5 ", ZoneOffset.UTC);

        assertThat(schedule.quartzExpression()).isEqualTo("0 0 9 ? * MON-FRI");
        assertThat(schedule.source()).isEqualTo("0 9 * * 1-5");
    }

    @Nested
    class Rejects {

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
                x 0 * * *        | minute       | 'x' is not a number or name
                60 0 * * *       | minute       | '60' is out of range 0-59
                0 24 * * *       | hour         | '24' is out of range 0-23
                0 0 0 * *        | day-of-month | '0' is out of range 1-31
                0 0 32 * *       | day-of-month | '32' is out of range 1-31
                0 0 * 13 *       | month        | '13' is out of range 1-12
                0 0 * 0 *        | month        | '0' is out of range 1-12
                0 0 * * 8        | day-of-week  | '8' is out of range 0-7
                0 0 * * 99999999999 | day-of-week | '99999999999' is out of range 0-7
                0 0 * JANUARY *  | month        | 'JANUARY' is not a number or name
                0 0 * * MON-FRU  | day-of-week  | 'FRU' is not a number or name
                0 MON * * *      | hour         | 'MON' is not a number or name
                0 0 * MON *      | month        | 'MON' is not a number or name
                0 0 * * JAN      | day-of-week  | 'JAN' is not a number or name
                ? 0 * * *        | minute       | '?' is not a number or name
                0 ? * * *        | hour         | '?' is not a number or name
                0 0 * ? *        | month        | '?' is not a number or name
                -5 0 * * *       | minute       | '-5' is not a number or name
                1-2-3 0 * * *    | minute       | '2-3' is not a number or name
                */0 0 * * *      | minute       | step '0' in '*/0' must be at least 1
                0 1-5/0 * * *    | hour         | step '0' in '1-5/0' must be at least 1
                */x 0 * * *      | minute       | step 'x' in '*/x' is not a number
                5/ 0 * * *       | minute       | step '' in '5/' is not a number
                5-1 0 * * *      | minute       | '5-1' ends before it starts; Unix cron does not wrap ranges
                0 22-2 * * *     | hour         | '22-2' ends before it starts; Unix cron does not wrap ranges, so split it in two, such as '22-23,0-2'
                0 0 * * FRI-MON  | day-of-week  | 'FRI-MON' ends before it starts
                0 0 * DEC-JAN *  | month        | 'DEC-JAN' ends before it starts
                1,,2 0 * * *     | minute       | '1,,2' has an empty list element
                0 0 * * 1,       | day-of-week  | '1,' has an empty list element
                """)
        void invalidFieldNamingFieldAndValue(String unix, String field, String problem) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> UnixCron.toQuartz(unix))
                    .withMessageStartingWith("cron '" + unix.trim() + "': ")
                    .withMessageContaining(field + " " + problem);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
                0 0 1 * MON      | '1'     | 'MON'
                0 0 1-7 * 1      | '1-7'   | '1'
                0 0 */2 * 1-5    | '*/2'   | '1-5'
                0 0 15 * 0-6/2   | '15'    | '0-6/2'
                """)
        void bothDayFieldsRestrictedExplainingWhy(String unix, String dayOfMonth, String dayOfWeek) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> UnixCron.toQuartz(unix))
                    .withMessageContaining("day-of-month " + dayOfMonth)
                    .withMessageContaining("day-of-week " + dayOfWeek)
                    .withMessageContaining("celery")
                    .withMessageContaining("restrict only one")
                    .withMessageContaining("'0 0 9 ? * MON#1'");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"0 0 9 * * ?", "0 0 9 ? * MON-FRI 2030"})
        void quartzExpressionPointingToScheduleCron(String quartz) {
            int fields = quartz.split(" ").length;
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> UnixCron.toQuartz(quartz))
                    .withMessage("cron '" + quartz + "' has " + fields + " fields; a Unix expression has 5"
                            + " (a 6- or 7-field Quartz expression needs Schedule.cron)");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"0 9 * *", "0 0 9 * * * * *", "daily"})
        void wrongFieldCount(String unix) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> UnixCron.toQuartz(unix))
                    .withMessageContaining("; a Unix expression has 5")
                    .withMessageNotContaining("Schedule.cron");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"@reboot", "@every 5m", "@"})
        void unknownMacro(String unix) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> UnixCron.toQuartz(unix))
                    .withMessageStartingWith("cron '" + unix + "' is not a known macro");
        }

        @ParameterizedTest
        @NullAndEmptySource
        @ValueSource(strings = {" ", "\t\n"})
        void blankExpression(String unix) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> UnixCron.toQuartz(unix))
                    .withMessage("cron must not be blank, was '" + unix + "'");
        }
    }

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    /** Quartz stops searching 100 years after the current year; stay well inside that. */
    private static final Instant END = Instant.parse("2060-01-01T00:00:00Z");
    private static final int FIRES = 200;

    private static List<Instant> quartzFires(String quartz) throws ParseException {
        CronExpression expression = new CronExpression(quartz);
        expression.setTimeZone(TimeZone.getTimeZone("UTC"));
        List<Instant> fires = new ArrayList<>();
        Date next = expression.getTimeAfter(Date.from(START.minusSeconds(1)));
        while (next != null && next.toInstant().isBefore(END) && fires.size() < FIRES) {
            fires.add(next.toInstant());
            next = expression.getTimeAfter(next);
        }
        return fires;
    }

    /**
     * A deliberately naive reading of a Unix expression, sharing no code with {@link UnixCron}: each
     * value of each field is tested against each element, and time is scanned minute by minute.
     */
    private record ReferenceCron(boolean[] minutes, boolean[] hours, boolean[] daysOfMonth,
                                 boolean[] months, boolean[] daysOfWeek, boolean eitherDayField) {

        private static final Map<String, String> MACROS = Map.of(
                "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *", "@weekly", "0 0 * * 0",
                "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");
        private static final String[] MONTH_NAMES =
                {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
        private static final String[] DAY_NAMES = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

        static ReferenceCron parse(String unix) {
            String text = unix.trim().toUpperCase(Locale.ROOT);
            String[] f = MACROS.getOrDefault(text.toLowerCase(Locale.ROOT), text).split("\\s+");
            for (int i = 0; i < 12; i++) {
                f[3] = f[3].replace(MONTH_NAMES[i], String.valueOf(i + 1));
            }
            for (int i = 0; i < 7; i++) {
                f[4] = f[4].replace(DAY_NAMES[i], String.valueOf(i));
            }
            // crontab's rule: two day fields that both do not start with '*' match a day if either does
            boolean either = !f[2].startsWith("*") && !f[2].startsWith("?") && !f[4].startsWith("*") && !f[4].startsWith("?");
            return new ReferenceCron(matching(f[0], 0, 59), matching(f[1], 0, 23), matching(f[2], 1, 31),
                    matching(f[3], 1, 12), matching(f[4], 0, 7), either);
        }

        private static boolean[] matching(String field, int min, int max) {
            boolean[] matches = new boolean[max + 1];
            for (int value = min; value <= max; value++) {
                for (String element : field.split(",")) {
                    matches[value] |= elementMatches(element, value, min, max);
                }
            }
            return matches;
        }

        private static boolean elementMatches(String element, int value, int min, int max) {
            String[] rangeAndStep = element.split("/");
            int step = rangeAndStep.length == 2 ? Integer.parseInt(rangeAndStep[1]) : 1;
            String range = rangeAndStep[0];
            int low;
            int high;
            if (range.equals("*") || range.equals("?")) {
                low = min;
                high = max;
            } else if (range.contains("-")) {
                low = Integer.parseInt(range.substring(0, range.indexOf('-')));
                high = Integer.parseInt(range.substring(range.indexOf('-') + 1));
            } else {
                low = Integer.parseInt(range);
                high = rangeAndStep.length == 2 ? max : low;
            }
            return value >= low && value <= high && (value - low) % step == 0;
        }

        List<Instant> fires() {
            boolean anyDayOfMonth = IntStream.rangeClosed(1, 31).allMatch(d -> daysOfMonth[d]);
            boolean anyDayOfWeek = IntStream.rangeClosed(0, 6).allMatch(this::onDayOfWeek);
            assertThat(anyDayOfMonth || anyDayOfWeek).as("a convertible case restricts one day field at most").isTrue();
            boolean everyDay = eitherDayField && (anyDayOfMonth || anyDayOfWeek);
            List<Instant> fires = new ArrayList<>();
            for (LocalDateTime minute = LocalDateTime.ofInstant(START, ZoneOffset.UTC);
                 minute.toInstant(ZoneOffset.UTC).isBefore(END) && fires.size() < FIRES;
                 minute = minute.plusMinutes(1)) {
                if (!onDay(minute.toLocalDate(), everyDay)) {
                    // nothing fires on this day: jump to its last minute, the loop steps to the next day
                    minute = minute.withHour(23).withMinute(59);
                } else if (hours[minute.getHour()] && minutes[minute.getMinute()]) {
                    fires.add(minute.toInstant(ZoneOffset.UTC));
                }
            }
            return fires;
        }

        private boolean onDay(LocalDate day, boolean everyDay) {
            if (everyDay) {
                return months[day.getMonthValue()];
            }
            return months[day.getMonthValue()] && daysOfMonth[day.getDayOfMonth()]
                    && onDayOfWeek(day.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : day.getDayOfWeek().getValue());
        }

        private boolean onDayOfWeek(int unixDay) {
            return daysOfWeek[unixDay] || (unixDay == 0 && daysOfWeek[7]);
        }
    }
}
