package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.onebeat.job.DstPolicy.Gap;
import dev.onebeat.job.DstPolicy.Overlap;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ScheduledInstantTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final Instant BEFORE_GAP = Instant.parse("2027-03-27T12:00:00Z");
    private static final Instant BEFORE_OVERLAP = Instant.parse("2027-10-30T12:00:00Z");

    @Nested
    class Note {

        @Test
        void regularInstantHasNone() {
            assertThat(next("30 2 * * *", BEFORE_OVERLAP.plusSeconds(86_400)).note()).isNull();
        }

        @Test
        void shiftedTimeSaysWhereItWasShiftedTo() {
            assertThat(next("30 2 * * *", BEFORE_GAP).note())
                    .isEqualTo("02:30 does not exist (clocks jump forward): shifted to 03:30+02:00 (gap=shift)");
        }

        @Test
        void skippedTimeSaysItWasSkipped() {
            Timetable skipping = Timetable.of(Schedule.unixCron("30 2 * * *", PARIS).onGap(Gap.SKIP));

            assertThat(skipping.between(BEFORE_GAP, BEFORE_GAP.plusSeconds(86_400), 1).get(0).note())
                    .isEqualTo("02:30 does not exist (clocks jump forward): skipped (gap=skip)");
        }

        @Test
        void firstOccurrenceNamesItsOffset() {
            assertThat(next("30 2 * * *", BEFORE_OVERLAP).note())
                    .isEqualTo("02:30 happens twice (clocks go back): the first, at +02:00 (overlap=first)");
        }

        @Test
        void secondOccurrenceNamesItsOffset() {
            Timetable last = Timetable.of(Schedule.unixCron("30 2 * * *", PARIS).onOverlap(Overlap.LAST));

            assertThat(last.next(BEFORE_OVERLAP).note())
                    .isEqualTo("02:30 happens twice (clocks go back): the second, at +01:00 (overlap=last)");
        }

        @Test
        void elapsedTimeCronNamesElapsedTimeAsItsRule() {
            assertThat(next("0 * * * *", Instant.parse("2027-10-31T00:30:00Z")).note())
                    .isEqualTo("02:00 happens twice (clocks go back): the second, at +01:00 (elapsed time)");
        }

        @Test
        void timeWithSecondsShowsThem() {
            Timetable withSeconds = Timetable.of(Schedule.cron("10 30 2 * * ?", PARIS));

            assertThat(withSeconds.next(BEFORE_GAP).note())
                    .isEqualTo("02:30:10 does not exist (clocks jump forward): shifted to 03:30:10+02:00 (gap=shift)");
        }

        private ScheduledInstant next(String unixCron, Instant after) {
            return Timetable.of(Schedule.unixCron(unixCron, PARIS)).next(after);
        }
    }

    @Nested
    class Validation {

        private final Instant at = Instant.parse("2027-03-28T01:30:00Z");
        private final LocalDateTime local = LocalDateTime.parse("2027-03-28T02:30");
        private final ZoneOffset offset = ZoneOffset.ofHours(2);

        @Test
        void regularInstantWithARuleIsRejected() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new ScheduledInstant(at, local, offset, Kind.REGULAR, "gap=shift"))
                    .withMessage("a REGULAR instant has no rule, was 'gap=shift'");
        }

        @Test
        void instantAffectedByDaylightSavingWithoutARuleIsRejected() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new ScheduledInstant(at, local, offset, Kind.GAP_SHIFTED, null))
                    .withMessage("a GAP_SHIFTED instant needs a rule");
        }

        @Test
        void missingPartIsRejectedNamingIt() {
            assertThatNullPointerException()
                    .isThrownBy(() -> new ScheduledInstant(at, null, offset, Kind.REGULAR, null))
                    .withMessage("local must not be null");
        }
    }

    @Test
    void onlyATimeSkippedInAGapDoesNotFire() {
        assertThat(Arrays.stream(Kind.values()).filter(kind -> !instantOf(kind).fires()))
                .containsExactly(Kind.GAP_SKIPPED);
    }

    @Test
    void localAtIsTheInstantAtItsOffset() {
        assertThat(instantOf(Kind.GAP_SHIFTED).localAt()).isEqualTo(OffsetDateTime.parse("2027-03-28T03:30+02:00"));
    }

    private static ScheduledInstant instantOf(Kind kind) {
        return new ScheduledInstant(Instant.parse("2027-03-28T01:30:00Z"), LocalDateTime.parse("2027-03-28T02:30"),
                ZoneOffset.ofHours(2), kind, kind == Kind.REGULAR ? null : "gap=shift");
    }
}
