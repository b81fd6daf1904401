package dev.onebeat.scheduler.operate.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.engine.fire.InstantRecords.Attempt;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Fault;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Fire;
import dev.onebeat.scheduler.engine.fire.InstantRecords.Slot;
import dev.onebeat.scheduler.operate.monitor.InstantJudge.Finding;
import dev.onebeat.scheduler.operate.monitor.InstantJudge.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstantJudgeTest {

    private static final Instant T = Instant.parse("2027-03-28T01:00:00Z");
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final Duration LATE_AFTER = Duration.ofSeconds(10);
    private static final Duration WINDOW = Duration.ofHours(1);

    @Test
    void aFireThatBeganWithinLateAfterIsOnTimeWithItsLag() {
        Verdict verdict = judge(committed(T.plusMillis(200), 1, "scheduled"), false, T.plusSeconds(5));

        assertThat(verdict.outcome()).isEqualTo(InstantOutcome.ON_TIME);
        assertThat(verdict.lag()).isEqualTo(Duration.ofMillis(200));
        assertThat(verdict.finding()).isEqualTo(Finding.SUCCESS);
    }

    @Test
    void aFireThatBeganBeforeItsInstantIsEarlyWithItsNegativeLagNotClampedToOnTime() {
        Verdict verdict = judge(committed(T.minusMillis(1900), 1, "scheduled"), false, T.plusSeconds(5));

        assertThat(verdict.outcome()).isEqualTo(InstantOutcome.EARLY);
        assertThat(verdict.lag()).isEqualTo(Duration.ofMillis(-1900));
        assertThat(verdict.outcome().text()).isEqualTo("early");
    }

    @Test
    void aFireThatBeganAfterLateAfterIsLateButNotMissedInsideItsGrace() {
        Verdict verdict = judge(committed(T.plusSeconds(12), 1, "scheduled"), false, T.plusSeconds(1 * 60L));

        assertThat(verdict.outcome()).isEqualTo(InstantOutcome.LATE);
        assertThat(verdict.finding()).isEqualTo(Finding.SUCCESS);
    }

    @Test
    void aFirstAttemptThatBeganAfterTheGraceIsAMissFollowedByASuccess() {
        Verdict verdict = judge(committed(T.plusSeconds(45), 1, "misfire"), false, T.plusSeconds(1 * 60L));

        assertThat(verdict.outcome()).isEqualTo(InstantOutcome.LATE);
        assertThat(verdict.finding()).isEqualTo(Finding.MISSED_THEN_SUCCESS);
    }

    @Test
    void aRetryOrARecoveryCommittingAfterTheGraceIsNoMissTheFirstAttemptBegan() {
        assertThat(judge(committed(T.plusSeconds(45), 3, "retry"), false, T.plusSeconds(1 * 60L)).finding())
                .isEqualTo(Finding.SUCCESS);
        assertThat(judge(committed(T.plusSeconds(65), 1, "recovery"), false, T.plusSeconds(2 * 60L)).finding())
                .isEqualTo(Finding.SUCCESS);
    }

    @Test
    void aSkipForAPolicyIsNeutralAndASkipForAnOutageIsAMiss() {
        Verdict paused = judge(skipped("paused"), false, T.plusSeconds(1 * 60L));
        Verdict superseded = judge(skipped("missed, a later instant fired"), false, T.plusSeconds(1 * 60L));

        assertThat(paused.outcome()).isEqualTo(InstantOutcome.SKIPPED);
        assertThat(paused.reason()).isEqualTo("paused");
        assertThat(paused.finding()).isEqualTo(Finding.NEUTRAL);
        assertThat(superseded.outcome()).isEqualTo(InstantOutcome.SKIPPED);
        assertThat(superseded.finding()).isEqualTo(Finding.MISSED);
    }

    @Test
    void aFailureWithItsRetryArmedIsRetryingUntilTheCatchUpWindowClosesThenFailed() {
        Slot failing = new Slot(null, new Attempt("failed", null, "java.sql.SQLException", "connection lost",
                T.plusSeconds(20), 1, T.plusSeconds(1)));

        Verdict retrying = judge(failing, false, T.plusSeconds(10));
        Verdict lost = judge(failing, false, T.plus(WINDOW).plus(GRACE));

        assertThat(retrying.outcome()).isEqualTo(InstantOutcome.RETRYING);
        assertThat(retrying.reason()).isEqualTo("attempt 1 failed (java.sql.SQLException: connection lost); attempt 2 at "
                + T.plusSeconds(20));
        assertThat(retrying.finding()).isEqualTo(Finding.UNSETTLED);
        assertThat(lost.outcome()).isEqualTo(InstantOutcome.FAILED);
    }

    @Test
    void aFailureWithNoRetryLeftIsFailedWithItsError() {
        Verdict verdict = judge(new Slot(null, new Attempt("failed", null, "java.lang.IllegalStateException", "boom",
                null, 3, T.plusSeconds(40))), false, T.plusSeconds(41));

        assertThat(verdict.outcome()).isEqualTo(InstantOutcome.FAILED);
        assertThat(verdict.reason()).isEqualTo("attempt 3 failed: java.lang.IllegalStateException: boom");
        assertThat(verdict.finding()).isEqualTo(Finding.FAILED);
    }

    @Test
    void nothingRecordedIsPendingInsideTheGraceRunningWhileLockedAndMissedAfter() {
        assertThat(judge(Slot.EMPTY, false, T.minusSeconds(5)).outcome()).as("not due").isEqualTo(InstantOutcome.PENDING);
        assertThat(judge(Slot.EMPTY, false, T.plus(GRACE).minusMillis(1)).outcome()).isEqualTo(InstantOutcome.PENDING);
        assertThat(judge(Slot.EMPTY, true, T.plusSeconds(10 * 60L)).outcome()).isEqualTo(InstantOutcome.RUNNING);
        Verdict missed = judge(Slot.EMPTY, false, T.plus(GRACE));
        assertThat(missed.outcome()).isEqualTo(InstantOutcome.MISSED);
        assertThat(missed.reason()).isEqualTo("no fire began by 2027-03-28T01:00:30Z (grace PT30S)");
        assertThat(missed.finding()).isEqualTo(Finding.MISSED);
    }

    @Test
    void aMissDuringAPeriodWhenFiresCouldNotReachTheDatabaseSaysSoAndOtherPeriodsSayNothing() {
        Fault quartz = new Fault("replica-1", "quartz", T.minusSeconds(40), T.minusMillis(500), 12,
                "org.quartz.JobPersistenceException: Failed to obtain DB connection");
        Fault fire = new Fault("replica-2", "fire", T.plusSeconds(20), T.plusSeconds(25), 1,
                "org.springframework.jdbc.CannotGetJdbcConnectionException: " + "x".repeat(200));
        Fault before = new Fault("replica-3", "quartz", T.minusSeconds(90), T.minusSeconds(2), 3, "old");
        Fault after = new Fault("replica-3", "members", T.plus(GRACE).plusMillis(1), T.plusSeconds(60), 1, "later");

        Verdict missed = InstantJudge.judge(T, true, Slot.EMPTY, false, GRACE, LATE_AFTER, WINDOW, T.plus(GRACE),
                List.of(before, quartz, fire, after));

        assertThat(missed.outcome()).isEqualTo(InstantOutcome.MISSED);
        assertThat(missed.finding()).isEqualTo(Finding.MISSED);
        assertThat(missed.reason()).isEqualTo("no fire began by 2027-03-28T01:00:30Z (grace PT30S): the database could "
                + "not be reached: replica-1 quartz from 2027-03-28T00:59:20Z to 2027-03-28T00:59:59.500Z (12 failures), "
                + "replica-2 fire from 2027-03-28T01:00:20Z to 2027-03-28T01:00:25Z (1 failure); last error: "
                + "org.springframework.jdbc.CannotGetJdbcConnectionException: " + "x".repeat(41) + "…");
        assertThat(missed.reason()).hasSizeLessThan(500);
        assertThat(InstantJudge.judge(T, true, Slot.EMPTY, false, GRACE, LATE_AFTER, WINDOW, T.plus(GRACE),
                List.of(before, after)).reason()).isEqualTo("no fire began by 2027-03-28T01:00:30Z (grace PT30S)");
        assertThat(InstantJudge.judge(T, true, Slot.EMPTY, false, GRACE, LATE_AFTER, WINDOW, T.plus(GRACE).minusMillis(1),
                List.of(quartz)).outcome()).as("inside its grace").isEqualTo(InstantOutcome.PENDING);
    }

    @Test
    void aTimeInAGapUnderGapSkipIsSkippedThoughNothingIsRecorded() {
        Verdict verdict = InstantJudge.judge(T, false, Slot.EMPTY, false, GRACE, LATE_AFTER, WINDOW, T.plusSeconds(5 * 60L));

        assertThat(verdict.outcome()).isEqualTo(InstantOutcome.SKIPPED);
        assertThat(verdict.reason()).isEqualTo("in a daylight-saving gap (gap=skip)");
        assertThat(verdict.finding()).isEqualTo(Finding.NEUTRAL);
    }

    private static Verdict judge(Slot slot, boolean running, Instant now) {
        return InstantJudge.judge(T, true, slot, running, GRACE, LATE_AFTER, WINDOW, now);
    }

    private static Slot committed(Instant firedAt, int attempt, String trigger) {
        return new Slot(new Fire(firedAt, firedAt.plusMillis(30), trigger, attempt, "node-1"), null);
    }

    private static Slot skipped(String reason) {
        return new Slot(null, new Attempt("skipped", reason, null, null, null, 1, T.plusSeconds(2)));
    }
}
