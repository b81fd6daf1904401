package dev.onebeat.scheduler.engine.schedule;

import static dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind.GAP_SHIFTED;
import static dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind.GAP_SKIPPED;
import static dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind.OVERLAP_FIRST;
import static dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind.OVERLAP_SECOND;
import static dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind.REGULAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.job.DstPolicy.Gap;
import dev.onebeat.job.DstPolicy.Overlap;
import dev.onebeat.job.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.IntStream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Daylight saving in zones chosen for their peculiarities, with the instants and offsets written out. */
class TimetableDaylightSavingTest {

    @Nested
    class EuropeParis {

        private final ZoneId paris = ZoneId.of("Europe/Paris");

        @Test
        void quarterHourCronFiresBothRunsOfTheRepeatedHourEveryQuarterOfRealTime() {
            Timetable timetable = Timetable.of(Schedule.unixCron("*/15 * * * *", paris));

            List<ScheduledInstant> fires = between(timetable, "2027-10-31T00:00:00Z", "2027-10-31T02:00:00Z");

            assertThat(fires)
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(
                            tuple(at("2027-10-31T02:00+02:00"), OVERLAP_FIRST),
                            tuple(at("2027-10-31T02:15+02:00"), OVERLAP_FIRST),
                            tuple(at("2027-10-31T02:30+02:00"), OVERLAP_FIRST),
                            tuple(at("2027-10-31T02:45+02:00"), OVERLAP_FIRST),
                            tuple(at("2027-10-31T02:00+01:00"), OVERLAP_SECOND),
                            tuple(at("2027-10-31T02:15+01:00"), OVERLAP_SECOND),
                            tuple(at("2027-10-31T02:30+01:00"), OVERLAP_SECOND),
                            tuple(at("2027-10-31T02:45+01:00"), OVERLAP_SECOND));
            assertThat(spacings(fires)).containsOnly(Duration.ofMinutes(15));
        }

        @Test
        void timeInTheGapFiresLaterByTheGapsLength() {
            ScheduledInstant fire = Timetable.of(Schedule.unixCron("30 2 * * *", paris))
                    .next(Instant.parse("2027-03-27T12:00:00Z"));

            assertThat(fire.localAt()).isEqualTo(at("2027-03-28T03:30+02:00"));
            assertThat(fire.kind()).isEqualTo(GAP_SHIFTED);
            assertThat(fire.local()).hasToString("2027-03-28T02:30");
        }

        @Test
        void timeInTheGapIsListedAsSkippedWhereShiftWouldHaveFiredIt() {
            Timetable timetable = Timetable.of(Schedule.unixCron("30 2 * * *", paris).onGap(Gap.SKIP));

            assertThat(between(timetable, "2027-03-27T12:00:00Z", "2027-03-29T12:00:00Z"))
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind, ScheduledInstant::fires)
                    .containsExactly(tuple(at("2027-03-28T03:30+02:00"), GAP_SKIPPED, false),
                            tuple(at("2027-03-29T02:30+02:00"), REGULAR, true));
            assertThat(timetable.next(Instant.parse("2027-03-27T12:00:00Z")).localAt())
                    .isEqualTo(at("2027-03-29T02:30+02:00"));
        }

        @Test
        void timeInTheOverlapFiresAtItsFirstOccurrenceByDefault() {
            assertThat(overlapFires(Schedule.unixCron("30 2 * * *", paris)))
                    .containsExactly(tuple(at("2027-10-31T02:30+02:00"), OVERLAP_FIRST));
        }

        @Test
        void timeInTheOverlapFiresAtItsSecondOccurrenceUnderLast() {
            assertThat(overlapFires(Schedule.unixCron("30 2 * * *", paris).onOverlap(Overlap.LAST)))
                    .containsExactly(tuple(at("2027-10-31T02:30+01:00"), OVERLAP_SECOND));
        }

        @Test
        void timeInTheOverlapFiresAtBothOccurrencesUnderBoth() {
            assertThat(overlapFires(Schedule.unixCron("30 2 * * *", paris).onOverlap(Overlap.BOTH)))
                    .containsExactly(tuple(at("2027-10-31T02:30+02:00"), OVERLAP_FIRST),
                            tuple(at("2027-10-31T02:30+01:00"), OVERLAP_SECOND));
        }

        private List<Tuple> overlapFires(Schedule.Cron cron) {
            return between(Timetable.of(cron), "2027-10-30T12:00:00Z", "2027-10-31T12:00:00Z").stream()
                    .map(fire -> tuple(fire.localAt(), fire.kind()))
                    .toList();
        }
    }

    @Nested
    class AmericaNewYork {

        @Test
        void hourlyCronFiresAtBothOccurrencesOfOneOClockWhateverItsPolicy() {
            Timetable timetable = Timetable.of(Schedule.unixCron("0 * * * *", ZoneId.of("America/New_York")));

            assertThat(between(timetable, "2027-11-07T04:00:00Z", "2027-11-07T08:00:00Z"))
                    .extracting(ScheduledInstant::at, ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(
                            tuple(Instant.parse("2027-11-07T04:00:00Z"), at("2027-11-07T00:00-04:00"), REGULAR),
                            tuple(Instant.parse("2027-11-07T05:00:00Z"), at("2027-11-07T01:00-04:00"), OVERLAP_FIRST),
                            tuple(Instant.parse("2027-11-07T06:00:00Z"), at("2027-11-07T01:00-05:00"), OVERLAP_SECOND),
                            tuple(Instant.parse("2027-11-07T07:00:00Z"), at("2027-11-07T02:00-05:00"), REGULAR));
        }

        @Test
        void hourlyCronWrittenAsAWrappingRangeAlsoFiresAtBothOccurrences() {
            // Quartz reads 12-11 as every hour, from noon round to eleven in the morning
            Timetable timetable = Timetable.of(Schedule.cron("0 0 12-11 * * ?", ZoneId.of("America/New_York")));

            assertThat(between(timetable, "2027-11-07T05:00:00Z", "2027-11-07T07:00:00Z"))
                    .extracting(ScheduledInstant::at)
                    .containsExactly(Instant.parse("2027-11-07T05:00:00Z"), Instant.parse("2027-11-07T06:00:00Z"));
        }
    }

    /** Zones whose clocks jump from 24:00 or 00:00: the day's midnight does not exist. */
    @Nested
    class MidnightTransitions {

        @Test
        void dailyMidnightCronFiresAtOneOClockOnTheDayChileSkipsMidnight() {
            Timetable timetable = Timetable.of(Schedule.unixCron("0 0 * * *", ZoneId.of("America/Santiago")));

            assertThat(between(timetable, "2027-09-04T00:00:00Z", "2027-09-07T00:00:00Z"))
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(tuple(at("2027-09-04T00:00-04:00"), REGULAR),
                            tuple(at("2027-09-05T01:00-03:00"), GAP_SHIFTED),
                            tuple(at("2027-09-06T00:00-03:00"), REGULAR));
        }

        @Test
        void saturdayEveningTimeRepeatedWhenChileTurnsItsClocksBackAtMidnight() {
            Schedule.Cron cron = Schedule.unixCron("45 23 * * SAT", ZoneId.of("America/Santiago"));
            Instant friday = Instant.parse("2027-04-02T12:00:00Z");

            assertThat(Timetable.of(cron).next(friday).localAt()).isEqualTo(at("2027-04-03T23:45-03:00"));
            assertThat(Timetable.of(cron.onOverlap(Overlap.LAST)).next(friday).localAt())
                    .isEqualTo(at("2027-04-03T23:45-04:00"));
        }

        @Test
        void dailyMidnightCronFiresAtOneOClockOnTheDayCubaSkipsMidnight() {
            Timetable timetable = Timetable.of(Schedule.unixCron("0 0 * * *", ZoneId.of("America/Havana")));

            ScheduledInstant fire = timetable.next(Instant.parse("2027-03-13T12:00:00Z"));

            assertThat(fire.localAt()).isEqualTo(at("2027-03-14T01:00-04:00"));
            assertThat(fire.kind()).isEqualTo(GAP_SHIFTED);
        }

        @Test
        void dailyMidnightCronSkipsTheDayCubaSkipsMidnightUnderSkip() {
            Timetable timetable =
                    Timetable.of(Schedule.unixCron("0 0 * * *", ZoneId.of("America/Havana")).onGap(Gap.SKIP));

            assertThat(between(timetable, "2027-03-13T12:00:00Z", "2027-03-15T12:00:00Z"))
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(tuple(at("2027-03-14T01:00-04:00"), GAP_SKIPPED),
                            tuple(at("2027-03-15T00:00-04:00"), REGULAR));
        }
    }

    @Nested
    class AfricaCairo {

        private final ZoneId cairo = ZoneId.of("Africa/Cairo");

        @Test
        void fridayMidnightThatDoesNotExistFiresAtOneOClock() {
            ScheduledInstant fire = Timetable.of(Schedule.unixCron("0 0 * * *", cairo))
                    .next(Instant.parse("2027-04-29T12:00:00Z"));

            assertThat(fire.localAt()).isEqualTo(at("2027-04-30T01:00+03:00"));
            assertThat(fire.kind()).isEqualTo(GAP_SHIFTED);
        }

        @Test
        void thursdayHourBeforeMidnightHappensTwice() {
            Timetable timetable = Timetable.of(Schedule.unixCron("30 23 * * *", cairo).onOverlap(Overlap.BOTH));

            assertThat(between(timetable, "2027-10-28T12:00:00Z", "2027-10-29T12:00:00Z"))
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(tuple(at("2027-10-28T23:30+03:00"), OVERLAP_FIRST),
                            tuple(at("2027-10-28T23:30+02:00"), OVERLAP_SECOND));
        }
    }

    /** Lord Howe Island moves its clocks by half an hour. */
    @Nested
    class AustraliaLordHowe {

        private final Timetable quarterHours =
                Timetable.of(Schedule.unixCron("*/15 * * * *", ZoneId.of("Australia/Lord_Howe")));

        @Test
        void quarterHourCronFiresEveryQuarterOfRealTimeThroughTheHalfHourOverlap() {
            assertThat(between(quarterHours, "2027-04-03T14:15:00Z", "2027-04-03T15:45:00Z"))
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(tuple(at("2027-04-04T01:15+11:00"), REGULAR),
                            tuple(at("2027-04-04T01:30+11:00"), OVERLAP_FIRST),
                            tuple(at("2027-04-04T01:45+11:00"), OVERLAP_FIRST),
                            tuple(at("2027-04-04T01:30+10:30"), OVERLAP_SECOND),
                            tuple(at("2027-04-04T01:45+10:30"), OVERLAP_SECOND),
                            tuple(at("2027-04-04T02:00+10:30"), REGULAR));
            assertThat(spacings(between(quarterHours, "2027-04-03T14:15:00Z", "2027-04-03T15:45:00Z")))
                    .containsOnly(Duration.ofMinutes(15));
        }

        @Test
        void quarterHourCronFiresEveryQuarterOfRealTimeThroughTheHalfHourGap() {
            // 02:00 and 02:15 shift onto 02:30 and 02:45, which fire anyway: regular, once
            assertThat(between(quarterHours, "2027-10-02T15:00:00Z", "2027-10-02T16:15:00Z"))
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(tuple(at("2027-10-03T01:30+10:30"), REGULAR),
                            tuple(at("2027-10-03T01:45+10:30"), REGULAR),
                            tuple(at("2027-10-03T02:30+11:00"), REGULAR),
                            tuple(at("2027-10-03T02:45+11:00"), REGULAR),
                            tuple(at("2027-10-03T03:00+11:00"), REGULAR));
            assertThat(spacings(between(quarterHours, "2027-10-02T15:00:00Z", "2027-10-02T16:15:00Z")))
                    .containsOnly(Duration.ofMinutes(15));
        }

        @Test
        void dailyTimeInTheGapFiresHalfAnHourLater() {
            ScheduledInstant fire = Timetable.of(Schedule.unixCron("15 2 * * *", ZoneId.of("Australia/Lord_Howe")))
                    .next(Instant.parse("2027-10-02T00:00:00Z"));

            assertThat(fire.localAt()).isEqualTo(at("2027-10-03T02:45+11:00"));
            assertThat(fire.kind()).isEqualTo(GAP_SHIFTED);
        }
    }

    /** Iran kept daylight saving until 2022, changing at midnight. */
    @Nested
    class AsiaTehran2021 {

        private final ZoneId tehran = ZoneId.of("Asia/Tehran");

        @Test
        void midnightThatDoesNotExistFiresAtOneOClock() {
            ScheduledInstant fire = Timetable.of(Schedule.unixCron("0 0 * * *", tehran))
                    .next(Instant.parse("2021-03-21T12:00:00Z"));

            assertThat(fire.localAt()).isEqualTo(at("2021-03-22T01:00+04:30"));
            assertThat(fire.kind()).isEqualTo(GAP_SHIFTED);
        }

        @Test
        void hourBeforeMidnightHappensTwice() {
            Timetable timetable = Timetable.of(Schedule.unixCron("30 23 * * *", tehran).onOverlap(Overlap.BOTH));

            assertThat(between(timetable, "2021-09-21T12:00:00Z", "2021-09-22T12:00:00Z"))
                    .extracting(ScheduledInstant::at, ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(
                            tuple(Instant.parse("2021-09-21T19:00:00Z"), at("2021-09-21T23:30+04:30"), OVERLAP_FIRST),
                            tuple(Instant.parse("2021-09-21T20:00:00Z"), at("2021-09-21T23:30+03:30"), OVERLAP_SECOND));
        }
    }

    /** Samoa skipped Friday 30 December 2011, moving from -10:00 to +14:00. */
    @Nested
    class PacificApia2011 {

        private final Schedule.Cron nineOClock = Schedule.unixCron("0 9 * * *", ZoneId.of("Pacific/Apia"));

        @Test
        void dailyCronFiresEveryTwentyFourHoursOfRealTimeAcrossTheSkippedDay() {
            Timetable timetable = Timetable.of(nineOClock);

            List<ScheduledInstant> fires = between(timetable, "2011-12-29T00:00:00Z", "2012-01-01T00:00:00Z");

            // 30 December's 09:00 shifts by the day onto 31 December's, which fires anyway
            assertThat(fires)
                    .extracting(ScheduledInstant::at, ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(
                            tuple(Instant.parse("2011-12-29T19:00:00Z"), at("2011-12-29T09:00-10:00"), REGULAR),
                            tuple(Instant.parse("2011-12-30T19:00:00Z"), at("2011-12-31T09:00+14:00"), REGULAR),
                            tuple(Instant.parse("2011-12-31T19:00:00Z"), at("2012-01-01T09:00+14:00"), REGULAR));
            assertThat(spacings(fires)).containsOnly(Duration.ofHours(24));
        }

        @Test
        void skippedDayIsNotListedUnderSkipBecauseItsInstantFiresAnyway() {
            Timetable timetable = Timetable.of(nineOClock.onGap(Gap.SKIP));

            assertThat(between(timetable, "2011-12-29T00:00:00Z", "2012-01-01T00:00:00Z"))
                    .extracting(ScheduledInstant::at)
                    .containsExactly(Instant.parse("2011-12-29T19:00:00Z"), Instant.parse("2011-12-30T19:00:00Z"),
                            Instant.parse("2011-12-31T19:00:00Z"));
        }
    }

    private static List<ScheduledInstant> between(Timetable timetable, String from, String to) {
        return timetable.between(Instant.parse(from), Instant.parse(to), 100);
    }

    private static List<Duration> spacings(List<ScheduledInstant> instants) {
        return IntStream.range(1, instants.size())
                .mapToObj(i -> Duration.between(instants.get(i - 1).at(), instants.get(i).at()))
                .toList();
    }

    private static OffsetDateTime at(String offsetDateTime) {
        return OffsetDateTime.parse(offsetDateTime);
    }
}
