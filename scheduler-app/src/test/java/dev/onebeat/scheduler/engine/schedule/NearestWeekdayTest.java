package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Quartz's {@code W} and {@code LW} as onebeat reads them: the weekday nearest the given day in the
 * same month, whatever the search starts from. The cases of issue 23, each one Quartz 2.5.2 answers
 * wrongly.
 */
class NearestWeekdayTest {

    private static final ZoneId CAIRO = ZoneId.of("Africa/Cairo");

    @Nested
    class TheCalendar {

        @Test
        void weekdayIsItsOwnNearestWeekday() {
            // Wednesday 15 September 2027
            assertThat(NearestWeekdayCron.nearestWeekday(YearMonth.of(2027, 9), 15)).isEqualTo(15);
        }

        @Test
        void saturdayMovesToTheFridayBefore() {
            // Saturday 15 May 2027
            assertThat(NearestWeekdayCron.nearestWeekday(YearMonth.of(2027, 5), 15)).isEqualTo(14);
        }

        @Test
        void sundayMovesToTheMondayAfter() {
            // Sunday 15 August 2027
            assertThat(NearestWeekdayCron.nearestWeekday(YearMonth.of(2027, 8), 15)).isEqualTo(16);
        }

        @Test
        void firstOfTheMonthOnASaturdayMovesToMondayTheThird() {
            // Saturday 1 December 2029: Friday would be in November
            assertThat(NearestWeekdayCron.nearestWeekday(YearMonth.of(2029, 12), 1)).isEqualTo(3);
        }

        @Test
        void lastOfTheMonthOnASundayMovesToTheFridayBefore() {
            // Sunday 31 October 2027: Monday would be in November
            assertThat(NearestWeekdayCron.nearestWeekday(YearMonth.of(2027, 10), 31)).isEqualTo(29);
        }

        @Test
        void dayTheMonthDoesNotHaveSelectsNone() {
            assertThat(NearestWeekdayCron.nearestWeekday(YearMonth.of(2027, 4), 31)).isZero();
            assertThat(NearestWeekdayCron.nearestWeekday(YearMonth.of(2027, 2), 0)).isZero();
        }
    }

    @Nested
    class TheWallClock {

        @Test
        void lastWeekdayIsFoundFromAStartEndingInNineHundredNinetyNineMilliseconds() {
            WallClockCron lastWeekday = new WallClockCron("0 0 0 LW * ?");

            assertThat(lastWeekday.next(LocalDateTime.parse("2027-10-28T23:59:59.999"))).isEqualTo("2027-10-29T00:00");
            assertThat(lastWeekday.next(LocalDateTime.parse("2027-10-28T23:59:59.999999999")))
                    .isEqualTo("2027-10-29T00:00");
        }

        @Test
        void dayMovedToMondayFiresEveryTimeOfDay() {
            WallClockCron cron = new WallClockCron("15,45 0 3 1W JAN,JUN,DEC ?");

            LocalDateTime first = cron.next(LocalDateTime.parse("2029-11-30T00:00"));
            assertThat(first).isEqualTo("2029-12-03T03:00:15");
            assertThat(cron.next(first)).isEqualTo("2029-12-03T03:00:45");
        }

        @Test
        void askedOnTheNominalSundayTheMondayFires() {
            // 15 August 2027 is a Sunday
            assertThat(new WallClockCron("0 0 3 15W * ?").next(LocalDateTime.parse("2027-08-15T12:00")))
                    .isEqualTo("2027-08-16T03:00");
        }

        @Test
        void dayFiresFromItsFirstTimeOfDayWhateverTheTimeOfDayAskedFrom() {
            // Quartz carried the 09:42 asked from into Friday 15 January and answered 10:00
            assertThat(new WallClockCron("0 0,30 9-10 15W * ?").next(LocalDateTime.parse("2027-01-01T09:42")))
                    .isEqualTo("2027-01-15T09:00");
        }

        @Test
        void nearestWeekdaysCombineWithPlainDaysInAList() {
            WallClockCron cron = new WallClockCron("0 0 9 1W,15,L * ?");

            // Saturday 1 May 2027 moves to Monday 3 May
            assertThat(cron.next(LocalDateTime.parse("2027-04-30T10:00"))).isEqualTo("2027-05-03T09:00");
            assertThat(cron.next(LocalDateTime.parse("2027-05-03T09:00"))).isEqualTo("2027-05-15T09:00");
            assertThat(cron.next(LocalDateTime.parse("2027-05-15T09:00"))).isEqualTo("2027-05-31T09:00");
        }

        @Test
        void malformedNearestWeekdayIsRejectedNamingIt() {
            // Quartz reads 1W/2 as 1W and drops the rest without a word
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new WallClockCron("0 0 3 1W/2 * ?"))
                    .withMessage("'0 0 3 1W/2 * ?' is not a valid Quartz cron expression: day-of-month item "
                            + "'1W/2' is not nW, LW or L-nW");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new WallClockCron("0 0 3 0W * ?"))
                    .withMessageContaining("names day 0; nW takes a day from 1 to 31");
        }
    }

    @Nested
    class TheTimetable {

        @Test
        void previewFromTheLastWeekdayItselfListsIt() {
            Timetable timetable = Timetable.of(Schedule.cron("0 0 0 LW * ?", ZoneOffset.UTC));

            assertThat(timetable.between(Instant.parse("2027-10-29T00:00:00Z"), Instant.parse("2027-12-01T00:00:00Z"), 10))
                    .extracting(ScheduledInstant::at)
                    .containsExactly(Instant.parse("2027-10-29T00:00:00Z"), Instant.parse("2027-11-30T00:00:00Z"));
        }

        @Test
        void lastWeekdayAtMidnightInTheGapShiftsOutOfIt() {
            // Friday 30 April 2027 is Cairo's last weekday of April, and its clocks jump from 00:00 to 01:00
            Timetable timetable = Timetable.of(Schedule.cron("0 0 0 LW * ?", CAIRO));

            ScheduledInstant next = timetable.next(Instant.parse("2027-04-01T00:00:00Z"));

            assertThat(next.localAt()).isEqualTo(OffsetDateTime.parse("2027-04-30T01:00+03:00"));
            assertThat(next.kind()).isEqualTo(Kind.GAP_SHIFTED);
        }

        @Test
        void lastWeekdayAtMidnightInTheGapIsListedAsSkippedUnderSkip() {
            Timetable timetable = Timetable.of(Schedule.cron("0 0 0 LW * ?", CAIRO)
                    .withDst(DstPolicy.DEFAULT.withGap(DstPolicy.Gap.SKIP)));

            assertThat(timetable.between(Instant.parse("2027-04-01T00:00:00Z"), Instant.parse("2027-06-01T00:00:00Z"), 10))
                    .extracting(ScheduledInstant::local, ScheduledInstant::kind)
                    .containsExactly(tuple(LocalDateTime.parse("2027-04-30T00:00"), Kind.GAP_SKIPPED),
                            tuple(LocalDateTime.parse("2027-05-31T00:00"), Kind.REGULAR));
        }

        @Test
        void latestAtOrBeforeTheLastTimeOfAMovedDayIsThatTime() {
            // 15 August 2027 is a Sunday: 15W is Monday the 16th, at 09:00, 09:30, 10:00 and 10:30
            Timetable timetable = Timetable.of(Schedule.cron("0 0,30 9-10 15W * ?", ZoneOffset.UTC));

            assertThat(timetable.latestAtOrBefore(Instant.parse("2027-08-16T10:00:00Z")))
                    .isEqualTo("2027-08-16T10:00:00Z");
        }
    }
}
