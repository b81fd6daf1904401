package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IntervalTimetableTest {

    private final Timetable everyTenSeconds = Timetable.of(Schedule.every(Duration.ofSeconds(10)));

    @Nested
    class Next {

        @ParameterizedTest
        @ValueSource(strings = {"2027-06-01T12:00:00Z", "2027-06-01T12:00:05Z", "2027-06-01T12:00:09.999999999Z"})
        void isTheFirstMultipleOfTheIntervalStrictlyAfterTheInstantGiven(String after) {
            assertThat(everyTenSeconds.next(Instant.parse(after)).at())
                    .isEqualTo(Instant.parse("2027-06-01T12:00:10Z"));
        }

        @Test
        void countsFromTheEpochNotFromTheHour() {
            Timetable everySevenSeconds = Timetable.of(Schedule.every(Duration.ofSeconds(7)));

            // 2027-01-01T00:00:00Z is 1,798,761,600 s after the epoch, 6 past a multiple of 7
            assertThat(everySevenSeconds.next(Instant.parse("2027-01-01T00:00:00Z")).at())
                    .isEqualTo(Instant.parse("2027-01-01T00:00:01Z"));
        }

        @Test
        void worksBeforeTheEpoch() {
            assertThat(everyTenSeconds.next(Instant.parse("1969-12-31T23:59:55Z")).at()).isEqualTo(Instant.EPOCH);
        }

        @Test
        void keepsItsSpacingAcrossDaylightSavingAndShowsTheDisplayZonesTime() {
            Timetable hourlyInParis = Timetable.of(Schedule.every(Duration.ofHours(1)).in(ZoneId.of("Europe/Paris")));

            assertThat(hourlyInParis.between(Instant.parse("2027-03-28T00:00:00Z"),
                    Instant.parse("2027-03-28T03:00:00Z"), 10))
                    .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                    .containsExactly(tuple(OffsetDateTime.parse("2027-03-28T01:00+01:00"), Kind.REGULAR),
                            tuple(OffsetDateTime.parse("2027-03-28T03:00+02:00"), Kind.REGULAR),
                            tuple(OffsetDateTime.parse("2027-03-28T04:00+02:00"), Kind.REGULAR));
        }
    }

    @Nested
    class LatestAtOrBefore {

        @Test
        void isTheInstantAskedAboutWhenItIsAMultiple() {
            assertThat(everyTenSeconds.latestAtOrBefore(Instant.parse("2027-06-01T12:00:10Z")))
                    .isEqualTo(Instant.parse("2027-06-01T12:00:10Z"));
        }

        @Test
        void isThePreviousMultipleOtherwise() {
            assertThat(everyTenSeconds.latestAtOrBefore(Instant.parse("2027-06-01T12:00:19.999Z")))
                    .isEqualTo(Instant.parse("2027-06-01T12:00:10Z"));
        }

        @Test
        void looksBackNoFurtherThanACron() {
            Timetable everyThousandDays = Timetable.of(Schedule.every(Duration.ofDays(1000)));
            Instant thousandDays = Instant.EPOCH.plus(Duration.ofDays(1000));

            assertThat(everyThousandDays.latestAtOrBefore(thousandDays.plus(Duration.ofDays(500))))
                    .isEqualTo(thousandDays);
            assertThat(everyThousandDays.latestAtOrBefore(thousandDays.plus(Duration.ofDays(999)))).isNull();
        }
    }

    @Nested
    class Between {

        @Test
        void includesFromAndExcludesTo() {
            assertThat(everyTenSeconds.between(Instant.parse("2027-06-01T12:00:10Z"),
                    Instant.parse("2027-06-01T12:00:30Z"), 10))
                    .extracting(ScheduledInstant::at)
                    .containsExactly(Instant.parse("2027-06-01T12:00:10Z"), Instant.parse("2027-06-01T12:00:20Z"));
        }

        @Test
        void fractionalBoundsKeepOnlyTheMultiplesInside() {
            assertThat(everyTenSeconds.between(Instant.parse("2027-06-01T12:00:10.5Z"),
                    Instant.parse("2027-06-01T12:00:30.000000001Z"), 10))
                    .extracting(ScheduledInstant::at)
                    .containsExactly(Instant.parse("2027-06-01T12:00:20Z"), Instant.parse("2027-06-01T12:00:30Z"));
        }

        @Test
        void stopsAtTheLimit() {
            assertThat(everyTenSeconds.between(Instant.parse("2027-06-01T12:00:00Z"),
                    Instant.parse("2027-06-02T00:00:00Z"), 3))
                    .extracting(ScheduledInstant::at)
                    .containsExactly(Instant.parse("2027-06-01T12:00:00Z"), Instant.parse("2027-06-01T12:00:10Z"),
                            Instant.parse("2027-06-01T12:00:20Z"));
        }
    }
}
