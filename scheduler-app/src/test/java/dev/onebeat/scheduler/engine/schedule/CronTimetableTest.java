package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.job.DstPolicy.Gap;
import dev.onebeat.job.DstPolicy.Overlap;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class CronTimetableTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Nested
    class LatestAtOrBefore {

        @Test
        void yearlyCronIsFoundThreeHundredDaysBack() {
            Timetable newYearsNoon = Timetable.of(Schedule.cron("0 0 12 1 1 ?", PARIS));

            // 300 days after 1 January: further back than a look-back that stopped at 182 days
            assertThat(newYearsNoon.latestAtOrBefore(Instant.parse("2027-10-28T12:00:00Z")))
                    .isEqualTo(Instant.parse("2027-01-01T11:00:00Z"));
        }

        @Test
        void cronLimitedTo29FebruaryIsFoundJustUnderTheLookBack() {
            Timetable leapDay = Timetable.of(Schedule.cron("0 0 12 29 2 ?"));
            Instant leapDayNoon = Instant.parse("2024-02-29T12:00:00Z");

            assertThat(leapDay.latestAtOrBefore(leapDayNoon.plus(Duration.ofDays(799)))).isEqualTo(leapDayNoon);
        }

        @Test
        void noneWhenTheLatestFireIsFurtherBackThanTheLookBack() {
            Timetable leapDay = Timetable.of(Schedule.cron("0 0 12 29 2 ?"));
            Instant leapDayNoon = Instant.parse("2024-02-29T12:00:00Z");

            assertThat(leapDay.latestAtOrBefore(leapDayNoon.plus(Timetable.MAX_LOOKBACK).plus(Duration.ofDays(1))))
                    .isNull();
        }

        @Test
        void fireAtTheInstantAskedAboutIsTheLatest() {
            Timetable daily = Timetable.of(Schedule.unixCron("0 9 * * *", PARIS));

            assertThat(daily.latestAtOrBefore(Instant.parse("2027-06-01T07:00:00Z")))
                    .isEqualTo(Instant.parse("2027-06-01T07:00:00Z"));
        }

        @Test
        void timeSkippedInAGapIsNotAFire() {
            Timetable skipping = Timetable.of(Schedule.unixCron("30 2 * * *", PARIS).onGap(Gap.SKIP));

            assertThat(skipping.latestAtOrBefore(Instant.parse("2027-03-28T12:00:00Z")))
                    .isEqualTo(Instant.parse("2027-03-27T01:30:00Z"));
        }
    }

    @Nested
    class Next {

        @Test
        void isStrictlyAfterTheInstantGiven() {
            Timetable daily = Timetable.of(Schedule.unixCron("0 9 * * *", PARIS));
            Instant nine = Instant.parse("2027-06-01T07:00:00Z");

            assertThat(daily.next(nine.minusNanos(1)).at()).isEqualTo(nine);
            assertThat(daily.next(nine).at()).isEqualTo(Instant.parse("2027-06-02T07:00:00Z"));
        }

        @Test
        void lastTimeACronMatchesFiresAtItsSecondOccurrenceUnderLast() {
            // the cron matches nothing after its one wall-clock time, which the clocks show again after the overlap
            Timetable once = Timetable.of(Schedule.cron("0 30 2 31 10 ? 2027", PARIS).onOverlap(Overlap.LAST));

            ScheduledInstant fire = once.next(Instant.parse("2027-10-30T00:00:00Z"));

            assertThat(fire.at()).isEqualTo(Instant.parse("2027-10-31T01:30:00Z"));
            assertThat(fire.kind()).isEqualTo(Kind.OVERLAP_SECOND);
        }

        @Test
        void lastTimeACronMatchesFiresAtBothOccurrencesUnderBoth() {
            Timetable once = Timetable.of(Schedule.cron("0 30 2 31 10 ? 2027", PARIS).onOverlap(Overlap.BOTH));

            ScheduledInstant first = once.next(Instant.parse("2027-10-30T00:00:00Z"));
            ScheduledInstant second = once.next(first.at());

            assertThat(first.at()).isEqualTo(Instant.parse("2027-10-31T00:30:00Z"));
            assertThat(second.at()).isEqualTo(Instant.parse("2027-10-31T01:30:00Z"));
            assertThat(once.next(second.at())).isNull();
        }

        @Test
        void noneAfterTheCronsLastYear() {
            Timetable year2027 = Timetable.of(Schedule.cron("0 0 12 1 1 ? 2027", PARIS));

            assertThat(year2027.next(Instant.parse("2027-01-01T11:00:00Z"))).isNull();
        }
    }

    @Nested
    class Between {

        @Test
        void includesFromAndExcludesTo() {
            Timetable daily = Timetable.of(Schedule.unixCron("0 9 * * *", PARIS));

            assertThat(daily.between(Instant.parse("2027-06-01T07:00:00Z"),
                    Instant.parse("2027-06-03T07:00:00Z"), 10))
                    .extracting(ScheduledInstant::at)
                    .containsExactly(Instant.parse("2027-06-01T07:00:00Z"), Instant.parse("2027-06-02T07:00:00Z"));
        }

        @Test
        void limitCountsSkippedTimesInOrder() {
            Timetable skipping = Timetable.of(Schedule.unixCron("30 2 * * *", PARIS).onGap(Gap.SKIP));

            assertThat(skipping.between(Instant.parse("2027-03-27T00:00:00Z"),
                    Instant.parse("2027-03-31T00:00:00Z"), 2))
                    .extracting(ScheduledInstant::at, ScheduledInstant::kind)
                    .containsExactly(tuple(Instant.parse("2027-03-27T01:30:00Z"), Kind.REGULAR),
                            tuple(Instant.parse("2027-03-28T01:30:00Z"), Kind.GAP_SKIPPED));
        }
    }

    @Test
    void expressionQuartzRefusesIsRejectedNamingIt() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Timetable.of(Schedule.cron("0 0 25 * * ?")))
                .withMessageStartingWith("'0 0 25 * * ?' is not a valid Quartz cron expression: ");
    }
}
