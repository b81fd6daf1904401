package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.zone.ZoneRules;
import org.junit.jupiter.api.Test;

/** The sweep's oracle, checked by hand on the cases it exists for. */
class ReferenceTimetableTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final ZoneRules LORD_HOWE = ZoneId.of("Australia/Lord_Howe").getRules();
    private static final SweepCron HALF_PAST_TWO =
            SweepCron.of("30 2 * * *", t -> t.getHour() == 2 && t.getMinute() == 30);
    private static final SweepCron QUARTER_HOURS =
            SweepCron.of("*/15 * * * *", t -> t.getMinute() % 15 == 0).countingElapsedTime();
    private static final Instant MARCH = Instant.parse("2027-03-27T00:00:00Z");
    private static final Instant APRIL = Instant.parse("2027-04-01T00:00:00Z");
    private static final Instant SEPTEMBER = Instant.parse("2027-09-30T00:00:00Z");
    private static final Instant OCTOBER = Instant.parse("2027-10-30T00:00:00Z");
    private static final Instant NOVEMBER = Instant.parse("2027-11-02T00:00:00Z");

    @Test
    void timeInAGapFiresWhereJavaTimeResolvesIt() {
        ReferenceTimetable reference = reference(PARIS.getRules(), HALF_PAST_TWO, DstPolicy.DEFAULT, MARCH, APRIL);

        ScheduledInstant shifted = reference.next(Instant.parse("2027-03-27T12:00:00Z"));

        assertThat(shifted.at()).isEqualTo(ZonedDateTime.ofLocal(LocalDateTime.parse("2027-03-28T02:30"), PARIS, null)
                .toInstant());
        assertThat(shifted.localAt()).hasToString("2027-03-28T03:30+02:00");
        assertThat(shifted.kind()).isEqualTo(Kind.GAP_SHIFTED);
    }

    @Test
    void timeInAGapIsListedAsSkippedAndDoesNotFireUnderSkip() {
        DstPolicy skip = DstPolicy.DEFAULT.withGap(DstPolicy.Gap.SKIP);
        ReferenceTimetable reference = reference(PARIS.getRules(), HALF_PAST_TWO, skip, MARCH, APRIL);

        assertThat(reference.between(Instant.parse("2027-03-28T00:00:00Z"), Instant.parse("2027-03-30T00:00:00Z"), 10))
                .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                .containsExactly(tuple(at("2027-03-28T03:30+02:00"), Kind.GAP_SKIPPED),
                        tuple(at("2027-03-29T02:30+02:00"), Kind.REGULAR));
        assertThat(reference.next(Instant.parse("2027-03-27T12:00:00Z")).kind()).isEqualTo(Kind.REGULAR);
    }

    @Test
    void timeInAnOverlapFiresAtTheLargerOffsetFirstAndTheSmallerSecond() {
        DstPolicy both = DstPolicy.DEFAULT.withOverlap(DstPolicy.Overlap.BOTH);
        ReferenceTimetable reference = reference(PARIS.getRules(), HALF_PAST_TWO, both, OCTOBER, NOVEMBER);

        assertThat(reference.between(Instant.parse("2027-10-31T00:00:00Z"), Instant.parse("2027-10-31T12:00:00Z"), 10))
                .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                .containsExactly(tuple(at("2027-10-31T02:30+02:00"), Kind.OVERLAP_FIRST),
                        tuple(at("2027-10-31T02:30+01:00"), Kind.OVERLAP_SECOND));
    }

    @Test
    void elapsedTimeCronFiresBothOccurrencesWhateverItsPolicy() {
        ReferenceTimetable reference = reference(PARIS.getRules(), QUARTER_HOURS, DstPolicy.DEFAULT, OCTOBER, NOVEMBER);

        assertThat(reference.between(Instant.parse("2027-10-31T00:45:00Z"), Instant.parse("2027-10-31T01:15:00Z"), 10))
                .extracting(ScheduledInstant::localAt, ScheduledInstant::kind, ScheduledInstant::rule)
                .containsExactly(tuple(at("2027-10-31T02:45+02:00"), Kind.OVERLAP_FIRST, "elapsed time"),
                        tuple(at("2027-10-31T02:00+01:00"), Kind.OVERLAP_SECOND, "elapsed time"));
    }

    @Test
    void shiftedTimeLandingOnARegularOneFiresOnceAsRegular() {
        ReferenceTimetable reference = reference(LORD_HOWE, QUARTER_HOURS, DstPolicy.DEFAULT, SEPTEMBER, OCTOBER);

        // 02:00 does not exist and shifts by the half-hour gap onto 02:30
        assertThat(reference.between(Instant.parse("2027-10-02T15:15:00Z"), Instant.parse("2027-10-02T15:45:00Z"), 10))
                .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                .containsExactly(tuple(at("2027-10-03T01:45+10:30"), Kind.REGULAR),
                        tuple(at("2027-10-03T02:30+11:00"), Kind.REGULAR));
    }

    @Test
    void skippedTimeWhoseInstantFiresAnywayIsNotListed() {
        SweepCron halfHours = SweepCron.of("0,30 0-3 * * *", t -> t.getHour() <= 3 && t.getMinute() % 30 == 0);
        DstPolicy skip = DstPolicy.DEFAULT.withGap(DstPolicy.Gap.SKIP);
        ReferenceTimetable reference = reference(LORD_HOWE, halfHours, skip, SEPTEMBER, OCTOBER);

        assertThat(reference.between(Instant.parse("2027-10-02T14:30:00Z"), Instant.parse("2027-10-02T17:00:00Z"), 10))
                .extracting(ScheduledInstant::localAt, ScheduledInstant::kind)
                .containsExactly(tuple(at("2027-10-03T01:00+10:30"), Kind.REGULAR),
                        tuple(at("2027-10-03T01:30+10:30"), Kind.REGULAR),
                        tuple(at("2027-10-03T02:30+11:00"), Kind.REGULAR),
                        tuple(at("2027-10-03T03:00+11:00"), Kind.REGULAR),
                        tuple(at("2027-10-03T03:30+11:00"), Kind.REGULAR));
    }

    @Test
    void refusesToAnswerBeforeItsRange() {
        ReferenceTimetable reference = reference(PARIS.getRules(), HALF_PAST_TWO, DstPolicy.DEFAULT, MARCH, APRIL);

        assertThatIllegalArgumentException().isThrownBy(() -> reference.next(MARCH.minusSeconds(1)));
    }

    @Test
    void knowsNoFireAfterItsRange() {
        ReferenceTimetable reference = reference(PARIS.getRules(), HALF_PAST_TWO, DstPolicy.DEFAULT, MARCH, APRIL);

        assertThat(reference.next(APRIL.minusSeconds(1))).isNull();
    }

    private static ReferenceTimetable reference(ZoneRules rules, SweepCron cron, DstPolicy policy, Instant from,
            Instant to) {
        return ReferenceTimetable.walking(rules, cron, policy, from, to);
    }

    private static OffsetDateTime at(String offsetDateTime) {
        return OffsetDateTime.parse(offsetDateTime);
    }
}
