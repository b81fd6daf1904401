package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What the preview lists around the daylight-saving changes of 2027: Europe/Paris springs forward on
 * 28 March (02:00 +01:00 becomes 03:00 +02:00, at 01:00Z) and falls back on 31 October (03:00 +02:00
 * becomes 02:00 +01:00, at 01:00Z); America/New_York falls back on 7 November (02:00 -04:00 becomes
 * 01:00 -05:00, at 06:00Z).
 */
class SchedulePreviewTest {

    private static final Instant BEFORE_SPRING = Instant.parse("2027-03-27T00:00:00Z");
    private static final Instant BEFORE_AUTUMN = Instant.parse("2027-10-30T00:00:00Z");

    @Nested
    class SpringForward {

        @Test
        void gapShiftFiresHalfPastTwoAtHalfPastThreeSummerTime() {
            SchedulePreview.Preview preview = SchedulePreview.of(paris("30 2 * * *", null, null), BEFORE_SPRING, 3);

            assertThat(preview.fires()).extracting(SchedulePreview.Fire::utc, SchedulePreview.Fire::local,
                    SchedulePreview.Fire::kind, SchedulePreview.Fire::fires).containsExactly(
                    tuple(Instant.parse("2027-03-27T01:30:00Z"), "2027-03-27T02:30:00+01:00", Kind.REGULAR, true),
                    tuple(Instant.parse("2027-03-28T01:30:00Z"), "2027-03-28T03:30:00+02:00", Kind.GAP_SHIFTED, true),
                    tuple(Instant.parse("2027-03-29T00:30:00Z"), "2027-03-29T02:30:00+02:00", Kind.REGULAR, true));
            SchedulePreview.Fire shifted = preview.fires().get(1);
            assertThat(shifted.wallClock()).isEqualTo("2027-03-28T02:30:00");
            assertThat(shifted.offset()).isEqualTo("+02:00");
            assertThat(shifted.rule()).isEqualTo("gap=shift");
            assertThat(shifted.note()).isEqualTo("02:30 does not exist (clocks jump forward): shifted to 03:30+02:00 "
                    + "(gap=shift)");
            assertThat(preview.fires().get(0).rule()).isNull();
            assertThat(preview.fires().get(0).note()).isNull();
            assertThat(preview.gap()).isEqualTo("shift");
            assertThat(preview.overlap()).isEqualTo("first");
            assertThat(preview.schedule()).isEqualTo("cron 0 30 2 * * ? Europe/Paris");
        }

        @Test
        void gapSkipListsTheSkippedTimeAsNotFiringBesideTheCountedFires() {
            SchedulePreview.Preview preview = SchedulePreview.of(paris("30 2 * * *", "skip", null), BEFORE_SPRING, 3);

            assertThat(preview.fires()).extracting(SchedulePreview.Fire::utc, SchedulePreview.Fire::kind,
                    SchedulePreview.Fire::fires).containsExactly(
                    tuple(Instant.parse("2027-03-27T01:30:00Z"), Kind.REGULAR, true),
                    tuple(Instant.parse("2027-03-28T01:30:00Z"), Kind.GAP_SKIPPED, false),
                    tuple(Instant.parse("2027-03-29T00:30:00Z"), Kind.REGULAR, true),
                    tuple(Instant.parse("2027-03-30T00:30:00Z"), Kind.REGULAR, true));
            assertThat(preview.fires().get(1).note())
                    .isEqualTo("02:30 does not exist (clocks jump forward): skipped (gap=skip)");
            assertThat(preview.schedule()).isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=skip overlap=first");
        }

        @Test
        void quarterHourCronCountsElapsedTimeAndLeavesNoHoleWhateverTheGapRule() {
            SchedulePreview.Preview preview = SchedulePreview.of(paris("*/15 * * * *", "skip", null),
                    Instant.parse("2027-03-28T00:30:00Z"), 4);

            assertThat(preview.fires()).extracting(SchedulePreview.Fire::utc, SchedulePreview.Fire::local)
                    .containsExactly(
                            tuple(Instant.parse("2027-03-28T00:30:00Z"), "2027-03-28T01:30:00+01:00"),
                            tuple(Instant.parse("2027-03-28T00:45:00Z"), "2027-03-28T01:45:00+01:00"),
                            tuple(Instant.parse("2027-03-28T01:00:00Z"), "2027-03-28T03:00:00+02:00"),
                            tuple(Instant.parse("2027-03-28T01:15:00Z"), "2027-03-28T03:15:00+02:00"));
            assertThat(preview.fires()).allMatch(SchedulePreview.Fire::fires);
        }
    }

    @Nested
    class FallBack {

        @Test
        void overlapFirstFiresHalfPastTwoSummerTime() {
            assertThat(SchedulePreview.of(paris("30 2 * * *", null, "first"), BEFORE_AUTUMN, 3).fires())
                    .extracting(SchedulePreview.Fire::utc, SchedulePreview.Fire::local, SchedulePreview.Fire::kind)
                    .containsExactly(
                            tuple(Instant.parse("2027-10-30T00:30:00Z"), "2027-10-30T02:30:00+02:00", Kind.REGULAR),
                            tuple(Instant.parse("2027-10-31T00:30:00Z"), "2027-10-31T02:30:00+02:00",
                                    Kind.OVERLAP_FIRST),
                            tuple(Instant.parse("2027-11-01T01:30:00Z"), "2027-11-01T02:30:00+01:00", Kind.REGULAR));
        }

        @Test
        void overlapLastFiresHalfPastTwoWinterTime() {
            SchedulePreview.Fire second = SchedulePreview.of(paris("30 2 * * *", null, "last"), BEFORE_AUTUMN, 3)
                    .fires().get(1);

            assertThat(second.utc()).isEqualTo(Instant.parse("2027-10-31T01:30:00Z"));
            assertThat(second.local()).isEqualTo("2027-10-31T02:30:00+01:00");
            assertThat(second.kind()).isEqualTo(Kind.OVERLAP_SECOND);
            assertThat(second.note()).isEqualTo("02:30 happens twice (clocks go back): the second, at +01:00 "
                    + "(overlap=last)");
        }

        @Test
        void overlapBothFiresEachHalfPastTwoAndEachCounts() {
            assertThat(SchedulePreview.of(paris("30 2 * * *", null, "both"), BEFORE_AUTUMN, 3).fires())
                    .extracting(SchedulePreview.Fire::local, SchedulePreview.Fire::kind, SchedulePreview.Fire::rule)
                    .containsExactly(
                            tuple("2027-10-30T02:30:00+02:00", Kind.REGULAR, null),
                            tuple("2027-10-31T02:30:00+02:00", Kind.OVERLAP_FIRST, "overlap=both"),
                            tuple("2027-10-31T02:30:00+01:00", Kind.OVERLAP_SECOND, "overlap=both"));
        }

        @Test
        void hourlyCronInNewYorkFiresBothOneOClocksWhateverTheOverlapRule() {
            SchedulePreview.Preview preview = SchedulePreview.of(new ScheduleFields("0 * * * *", null,
                    "America/New_York", null, "first"), Instant.parse("2027-11-07T04:00:00Z"), 4);

            assertThat(preview.fires()).extracting(SchedulePreview.Fire::utc, SchedulePreview.Fire::local,
                    SchedulePreview.Fire::rule).containsExactly(
                    tuple(Instant.parse("2027-11-07T04:00:00Z"), "2027-11-07T00:00:00-04:00", null),
                    tuple(Instant.parse("2027-11-07T05:00:00Z"), "2027-11-07T01:00:00-04:00", "elapsed time"),
                    tuple(Instant.parse("2027-11-07T06:00:00Z"), "2027-11-07T01:00:00-05:00", "elapsed time"),
                    tuple(Instant.parse("2027-11-07T07:00:00Z"), "2027-11-07T02:00:00-05:00", null));
        }
    }

    @Nested
    class Intervals {

        @Test
        void intervalIsAlignedToTheEpochAndHasNoPolicy() {
            SchedulePreview.Preview preview = SchedulePreview.of(new ScheduleFields(null, "15m", null, null, null),
                    Instant.parse("2027-01-01T00:07:00Z"), 2);

            assertThat(preview.fires()).extracting(SchedulePreview.Fire::utc).containsExactly(
                    Instant.parse("2027-01-01T00:15:00Z"), Instant.parse("2027-01-01T00:30:00Z"));
            assertThat(preview.gap()).isNull();
            assertThat(preview.overlap()).isNull();
        }

        @Test
        void intervalWithAGapRuleIsRefusedNamingTheField() {
            assertThatThrownBy(() -> SchedulePreview.of(new ScheduleFields(null, "1h", null, "skip", null),
                    BEFORE_SPRING, 3))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("gap: 'skip' applies to cron schedules only; an every schedule counts elapsed seconds "
                            + "and never meets a daylight-saving gap (remove gap, or use cron)");
        }
    }

    private static ScheduleFields paris(String cron, String gap, String overlap) {
        return new ScheduleFields(cron, null, "Europe/Paris", gap, overlap);
    }
}
