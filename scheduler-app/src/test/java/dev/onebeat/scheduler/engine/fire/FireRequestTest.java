package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FireRequestTest {

    private static final Instant T = Instant.parse("2026-11-29T08:00:00Z");

    @Test
    void aScheduledFireIsTheFirstAttemptOfNoRun() {
        FireRequest request = FireRequest.of(T, FireTrigger.MISFIRE, "node-a");

        assertThat(request).isEqualTo(new FireRequest(T, FireTrigger.MISFIRE, "node-a", null, 1));
        assertThat(request.scheduled()).isTrue();
        assertThat(request.expiresFromFire()).isFalse();
    }

    @Test
    void aRunIsNotTheSchedulesOwnFireAndCountsItsExpiryFromTheFire() {
        FireRequest request = FireRequest.of(T, FireTrigger.RECOVERY, "node-a").withRun("request-1");

        assertThat(request.scheduled()).isFalse();
        assertThat(request.expiresFromFire()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(FireTrigger.class)
    void onlyTheSchedulesOwnFireWaitsForEachJobsPlannedMomentRecoveredOrNot(FireTrigger trigger) {
        boolean own = trigger == FireTrigger.SCHEDULED || trigger == FireTrigger.MISFIRE
                || trigger == FireTrigger.RECOVERY;

        assertThat(FireRequest.of(T, trigger, "node-a").waitsForPlannedMoment()).isEqualTo(own);
        assertThat(FireRequest.of(T, trigger, "node-a").withRun("request-1").waitsForPlannedMoment()).isFalse();
    }

    @Test
    void anotherInstantKeepsTriggerNodeRunAndAttempt() {
        FireRequest request = new FireRequest(T, FireTrigger.RETRY, "node-a", "r", 3);

        assertThat(request.at(T.plusSeconds(60))).isEqualTo(new FireRequest(T.plusSeconds(60), FireTrigger.RETRY,
                "node-a", "r", 3));
        assertThat(request.withAttempt(4).attempt()).isEqualTo(4);
    }

    @Test
    void anAttemptBelowOneIsRejectedNamingIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> new FireRequest(T, FireTrigger.SCHEDULED, "n", null, 0))
                .withMessage("attempt must be at least 1, was 0");
    }

    @Test
    void aMissingNodeIsRejected() {
        assertThatNullPointerException().isThrownBy(() -> FireRequest.of(T, FireTrigger.SCHEDULED, null))
                .withMessage("node must not be null");
    }
}
