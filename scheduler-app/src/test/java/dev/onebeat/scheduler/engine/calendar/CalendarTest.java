package dev.onebeat.scheduler.engine.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.job.CalendarPolicy;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Calendars as configuration writes them: what each holds, read in its zone, and the words of a bad one. */
class CalendarTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Nested
    class WeeklyWindows {

        @ParameterizedTest
        @CsvSource(delimiter = '|', textBlock = """
                MON-FRI 08:00-18:00 | MON-FRI 08:00-18:00
                sat,sun             | SAT,SUN
                FRI-MON             | MON,FRI-SUN
                MON,WED,FRI 9:30-12:00 | MON,WED,FRI 09:30-12:00
                FRI 22:00-06:00     | FRI 22:00-06:00
                SUN 18:00-24:00     | SUN 18:00-24:00
                """)
        void aWindowIsReadAndWrittenBackInOneForm(String written, String normal) {
            assertThat(WeeklyWindow.parse(written)).hasToString(normal);
            assertThat(WeeklyWindow.parse(normal)).isEqualTo(WeeklyWindow.parse(written));
        }

        @Test
        void aWindowHoldsItsStartAndNotItsEndAndOnePastMidnightEndsTheNextDay() {
            WeeklyWindow office = WeeklyWindow.parse("MON-FRI 08:00-18:00");
            WeeklyWindow night = WeeklyWindow.parse("FRI 22:00-06:00");
            LocalDateTime friday = LocalDate.of(2027, 3, 26).atStartOfDay();

            assertThat(office.contains(friday.withHour(8))).isTrue();
            assertThat(office.contains(friday.withHour(17).withMinute(59))).isTrue();
            assertThat(office.contains(friday.withHour(18))).isFalse();
            assertThat(office.contains(friday.plusDays(1).withHour(10))).as("Saturday").isFalse();
            assertThat(night.contains(friday.withHour(23))).isTrue();
            assertThat(night.contains(friday.plusDays(1).withHour(5).withMinute(59))).as("Saturday morning").isTrue();
            assertThat(night.contains(friday.plusDays(1).withHour(6))).isFalse();
            assertThat(night.contains(friday.withHour(5))).as("Friday morning: Thursday has no window").isFalse();
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "MON-FRI 8-18", "MONDAY", "MON 08:00-08:00", "MON 25:00-26:00", "MON;TUE"})
        void aBadWindowIsRefusedSayingWhy(String text) {
            assertThatThrownBy(() -> WeeklyWindow.parse(text)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'");
        }
    }

    @Nested
    class AcrossDaylightSaving {

        /**
         * Office hours in Paris, checked hour by hour across both changes of 2027 against the reference: each
         * instant turned to Paris wall-clock time by java.time's zone rules, then compared with 08:00-18:00 on a
         * weekday.
         */
        @Test
        void officeHoursFollowTheZonesClocksOnBothChangesOfTheYear() {
            Calendar office = calendar(Map.of(), "MON-FRI 08:00-18:00");
            for (LocalDate day : List.of(LocalDate.of(2027, 3, 26), LocalDate.of(2027, 10, 29))) {
                Instant from = day.atStartOfDay(ZoneId.of("UTC")).toInstant();
                for (int hour = 0; hour < 24 * 4; hour++) {
                    Instant instant = from.plusSeconds(3600L * hour);
                    ZonedDateTime local = instant.atZone(PARIS);
                    boolean reference = local.getDayOfWeek().getValue() <= DayOfWeek.FRIDAY.getValue()
                            && !local.toLocalTime().isBefore(LocalTime.of(8, 0))
                            && local.toLocalTime().isBefore(LocalTime.of(18, 0));
                    assertThat(office.contains(instant)).as("%s (%s)", instant, local).isEqualTo(reference);
                }
            }
            // the first hour of office on the Monday after each change, in UTC
            assertThat(office.contains(Instant.parse("2027-03-29T06:00:00Z"))).isTrue();
            assertThat(office.contains(Instant.parse("2027-03-26T06:00:00Z"))).as("07:00 in winter").isFalse();
            assertThat(office.contains(Instant.parse("2027-11-01T07:00:00Z"))).isTrue();
            assertThat(office.contains(Instant.parse("2027-11-01T06:00:00Z"))).as("07:00 in winter").isFalse();
        }

        @Test
        void aDayIsTheZonesDayNotUtcs() {
            Calendar holidays = calendar(Map.of("yearly", List.of("05-01")));

            assertThat(holidays.contains(Instant.parse("2027-04-30T22:00:00Z"))).as("00:00 on 1 May in Paris").isTrue();
            assertThat(holidays.contains(Instant.parse("2027-04-30T21:59:59Z"))).isFalse();
            assertThat(holidays.contains(Instant.parse("2027-05-01T22:00:00Z"))).as("2 May in Paris").isFalse();
        }
    }

    @Nested
    class Days {

        @Test
        void datesRangesAndYearlyDaysHoldWholeDaysBothEndsOfARangeIncluded() {
            Calendar freeze = calendar(Map.of("dates", List.of("2027-05-13"), "ranges", List.of("2027-12-24..2028-01-02"),
                    "yearly", List.of("07-14", "02-29")));

            assertThat(freeze.contains(paris(2027, 5, 13, 23))).isTrue();
            assertThat(freeze.contains(paris(2027, 12, 24, 0))).isTrue();
            assertThat(freeze.contains(paris(2028, 1, 2, 23))).isTrue();
            assertThat(freeze.contains(paris(2028, 1, 3, 0))).isFalse();
            assertThat(freeze.contains(paris(2031, 7, 14, 12))).as("every year").isTrue();
            assertThat(freeze.contains(paris(2028, 2, 29, 12))).as("a leap year's").isTrue();
            assertThat(freeze.contains(paris(2027, 3, 1, 12))).isFalse();
        }

        @Test
        void aBadFieldIsRefusedNamingTheCalendarTheFieldAndTheValue() {
            assertThatThrownBy(() -> Calendars.parse("onebeat.calendars.fr", "fr", definition("Europe/Paris",
                    Map.of("yearly", List.of("01-01", "13-01")))))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.calendars.fr.yearly[1]: '13-01' is not a day of the year (MM-DD)");
            assertThatThrownBy(() -> Calendars.parse("", "fr", definition("Europe/Paris",
                    Map.of("ranges", List.of("2028-01-02..2027-12-24")))))
                    .hasMessage("ranges[0]: the range ends (2027-12-24) before it begins (2028-01-02)");
            assertThatThrownBy(() -> Calendars.parse("", "fr", definition("Mars/Olympus", Map.of("dates",
                    List.of("2027-01-01")))))
                    .hasMessageStartingWith("zone: 'Mars/Olympus' is not a known IANA time zone");
            assertThatThrownBy(() -> Calendars.parse("", "empty", definition("UTC", Map.of())))
                    .hasMessageStartingWith("dates: calendar 'empty' holds no day");
            assertThatThrownBy(() -> Calendars.parse("", "no spaces", definition("UTC", Map.of("dates",
                    List.of("2027-01-01"))))).hasMessageStartingWith("name: must be 1 to 100 letters");
        }
    }

    @Nested
    class Policies {

        private final Map<String, Calendar> all = Map.of(
                "holidays", calendar(Map.of("yearly", List.of("05-01"))),
                "office", calendar(Map.of(), "MON-FRI 08:00-18:00"),
                "weekend", calendar(Map.of(), "SAT,SUN"));

        @Test
        void anExcludedCalendarComesFirstThenTheIncludedOnesAnyOneOfWhichLetsTheInstantFire() {
            CalendarPolicy policy = CalendarPolicy.including("office", "weekend").andExcluding("holidays");

            assertThat(Calendars.exclusion(policy, paris(2027, 5, 3, 9), all)).as("a Monday at 09:00").isNull();
            assertThat(Calendars.exclusion(policy, paris(2027, 5, 1, 9), all)).as("1 May, a Saturday")
                    .isEqualTo("excluded by calendar 'holidays'");
            assertThat(Calendars.exclusion(policy, paris(2027, 5, 3, 20), all))
                    .isEqualTo("outside calendars 'office', 'weekend'");
            assertThat(Calendars.exclusion(CalendarPolicy.including("office"), paris(2027, 5, 3, 20), all))
                    .isEqualTo("outside calendar 'office'");
        }

        @Test
        void theActivePeriodHoldsItsStartAndNotItsEnd() {
            Instant from = paris(2027, 5, 3, 0);
            Instant until = paris(2027, 5, 4, 0);
            CalendarPolicy policy = CalendarPolicy.NONE.activeBetween(from, until);

            assertThat(Calendars.exclusion(policy, from, all)).isNull();
            assertThat(Calendars.exclusion(policy, from.minusSeconds(1), all))
                    .isEqualTo("before its active period (from 2027-05-02T22:00:00Z)");
            assertThat(Calendars.exclusion(policy, until, all))
                    .isEqualTo("after its active period (until 2027-05-03T22:00:00Z)");
        }

        @Test
        void everyWeekdayWithTheHolidaysExcludedAndTheLastPickedIsTheLastBusinessDayOfTheMonth() {
            // 31 December 2027 is a Friday and a holiday here: the last business day of the month is Thursday the 30th
            Map<String, Calendar> calendars = Map.of("holidays", calendar(Map.of("dates", List.of("2027-12-31"),
                    "yearly", List.of("01-01"))));
            Schedule weekdays = Schedule.unixCron("0 18 * * MON-FRI", PARIS);
            PeriodicJob last = Jobs.periodic("month-end", weekdays).calendars(CalendarPolicy.excluding("holidays")
                    .picking(CalendarPolicy.Pick.LAST_IN_MONTH)).execute(context -> { });
            PeriodicJob first = Jobs.periodic("month-start", weekdays).calendars(CalendarPolicy.excluding("holidays")
                    .picking(CalendarPolicy.Pick.FIRST_IN_MONTH)).execute(context -> { });

            assertThat(Calendars.exclusion(last, paris(2027, 12, 30, 18), calendars)).isNull();
            assertThat(Calendars.exclusion(last, paris(2027, 12, 31, 18), calendars))
                    .isEqualTo("excluded by calendar 'holidays'");
            assertThat(Calendars.exclusion(last, paris(2027, 12, 29, 18), calendars))
                    .isEqualTo("not the last of its month let through (pick=last-in-month)");
            assertThat(Calendars.exclusion(last, paris(2027, 11, 30, 18), calendars)).as("a Tuesday, the 30th")
                    .isNull();
            // 1 January 2028 is a Saturday: the first business day is Monday the 3rd
            assertThat(Calendars.exclusion(first, paris(2028, 1, 3, 18), calendars)).isNull();
            assertThat(Calendars.exclusion(first, paris(2028, 1, 4, 18), calendars))
                    .isEqualTo("not the first of its month let through (pick=first-in-month)");
        }

        @Test
        void aCalendarThatWentIsASkipNotAFire() {
            assertThat(Calendars.exclusion(CalendarPolicy.excluding("gone"), paris(2027, 5, 3, 9), all))
                    .isEqualTo("calendar 'gone' is not defined");
        }

        @Test
        void aJobNamingAnUnknownCalendarIsRefusedNamingTheFieldAndTheKnownOnes() {
            assertThatThrownBy(() -> Calendars.requireDefined(CalendarPolicy.including("office").andExcluding("holidays",
                    "fr-holidays"), all.keySet(), "onebeat.jobs[0] (job 'x')"))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').calendars.exclude[1]: no calendar is named 'fr-holidays';"
                            + " defined: holidays, office, weekend");
        }
    }

    private static Instant paris(int year, int month, int day, int hour) {
        return LocalDateTime.of(year, month, day, hour, 0).atZone(PARIS).toInstant();
    }

    private static Calendar calendar(Map<String, List<String>> days, String... weekly) {
        Map<String, List<String>> fields = new java.util.HashMap<>(days);
        fields.put("weekly", List.of(weekly));
        return Calendars.parse("", "test", definition("Europe/Paris", fields));
    }

    private static CalendarsProperties.Definition definition(String zone, Map<String, List<String>> fields) {
        return new CalendarsProperties.Definition(zone, fields.getOrDefault("dates", new ArrayList<>()),
                fields.get("ranges"), fields.get("yearly"), fields.get("weekly"));
    }
}
