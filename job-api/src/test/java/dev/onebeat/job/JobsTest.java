package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobsTest {

    private static final Schedule EVERY_MINUTE = Schedule.every(Duration.ofMinutes(1));

    @Test
    void jobHasDefaultMisfirePolicyAndLock() {
        PeriodicJob job = Jobs.periodic("invoice-reminders", EVERY_MINUTE).execute(context -> { });

        assertThat(job.name()).isEqualTo("invoice-reminders");
        assertThat(job.schedule()).isEqualTo(EVERY_MINUTE);
        assertThat(job.misfirePolicy()).isEqualTo(MisfirePolicy.FIRE_ONCE_NOW);
        assertThat(job.lockAtMostFor()).isEqualTo(PeriodicJob.DEFAULT_LOCK_AT_MOST_FOR);
    }

    @Test
    void builderOverridesMisfirePolicyAndLock() {
        PeriodicJob job = Jobs.periodic("invoice-reminders", EVERY_MINUTE)
                .misfirePolicy(MisfirePolicy.SKIP_MISSED)
                .lockAtMostFor(Duration.ofMinutes(5))
                .execute(context -> { });

        assertThat(job.misfirePolicy()).isEqualTo(MisfirePolicy.SKIP_MISSED);
        assertThat(job.lockAtMostFor()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void retriesThreeTimesWithinAnHourUnlessTheBuilderSaysOtherwise() {
        PeriodicJob plain = Jobs.periodic("reports", EVERY_MINUTE).execute(context -> { });
        RetryPolicy five = RetryPolicy.DEFAULT.withAttempts(5);
        PeriodicJob tuned = Jobs.periodic("reports", EVERY_MINUTE).retry(five).catchUpWindow(Duration.ofMinutes(5))
                .execute(context -> { });

        assertThat(plain.retry()).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(plain.catchUpWindow()).isEqualTo(PeriodicJob.DEFAULT_CATCH_UP_WINDOW);
        assertThat(tuned.retry()).isEqualTo(five);
        assertThat(tuned.catchUpWindow()).isEqualTo(Duration.ofMinutes(5));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("reports", EVERY_MINUTE).catchUpWindow(Duration.ZERO))
                .withMessage("catchUpWindow must be positive, was PT0S");
    }

    @Test
    void firesAtItsInstantUnlessTheBuilderSetsAJitterOrASpread() {
        PeriodicJob plain = Jobs.periodic("reports", EVERY_MINUTE).execute(context -> { });
        PeriodicJob moved = Jobs.periodic("reports", EVERY_MINUTE).jitter(Duration.ofSeconds(5))
                .spread(Duration.ofSeconds(20)).execute(context -> { });

        assertThat(plain.jitter()).isZero();
        assertThat(plain.spread()).isZero();
        assertThat(moved.jitter()).isEqualTo(Duration.ofSeconds(5));
        assertThat(moved.spread()).isEqualTo(Duration.ofSeconds(20));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("reports", EVERY_MINUTE).jitter(Duration.ofSeconds(-1)))
                .withMessage("jitter must not be negative, was PT-1S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("reports", EVERY_MINUTE).spread(Duration.ofMillis(-5)))
                .withMessage("spread must not be negative, was PT-0.005S");
        assertThatNullPointerException().isThrownBy(() -> Jobs.periodic("reports", EVERY_MINUTE).spread(null))
                .withMessage("spread must not be null");
    }

    @Test
    void alertsWithTheDefaultPolicyUnlessTheBuilderSaysOtherwise() {
        AlertPolicy quiet = AlertPolicy.DEFAULT.withThresholds(3, 2).disabled();
        PeriodicJob plain = Jobs.periodic("reports", EVERY_MINUTE).execute(context -> { });
        PeriodicJob tuned = Jobs.periodic("reports", EVERY_MINUTE).alerts(quiet).execute(context -> { });

        assertThat(plain.alerts()).isEqualTo(AlertPolicy.DEFAULT);
        assertThat(tuned.alerts()).isEqualTo(quiet);
    }

    @Test
    void catchesUpTenInstantsAndBuffersOneOverlapUnlessTheBuilderSaysOtherwise() {
        PeriodicJob plain = Jobs.periodic("reports", EVERY_MINUTE).execute(context -> { });
        PeriodicJob tuned = Jobs.periodic("reports", EVERY_MINUTE).maxCatchUp(3).overlapPolicy(OverlapPolicy.SKIP)
                .execute(context -> { });

        assertThat(plain.maxCatchUp()).isEqualTo(10);
        assertThat(plain.overlapPolicy()).isEqualTo(OverlapPolicy.BUFFER_ONE);
        assertThat(tuned.maxCatchUp()).isEqualTo(3);
        assertThat(tuned.overlapPolicy()).isEqualTo(OverlapPolicy.SKIP);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("reports", EVERY_MINUTE).maxCatchUp(0))
                .withMessage("maxCatchUp must be at least 1, was 0");
        assertThatNullPointerException()
                .isThrownBy(() -> Jobs.periodic("reports", EVERY_MINUTE).overlapPolicy(null))
                .withMessage("overlapPolicy must not be null");
    }

    @Test
    void runHandsTheContextToTheBody() throws Exception {
        AtomicReference<JobContext> seen = new AtomicReference<>();
        JobContext context = new FixedContext();

        Jobs.periodic("invoice-reminders", EVERY_MINUTE).execute(seen::set).run(context);

        assertThat(seen).hasValue(context);
    }

    @Test
    void belongsToTheDefaultNamespaceUnlessTheBuilderNamesOne() {
        assertThat(Jobs.periodic("a", EVERY_MINUTE).execute(context -> { }).namespace()).isEqualTo("default");
        assertThat(Jobs.periodic("a", EVERY_MINUTE).namespace("team-a").execute(context -> { }).namespace())
                .isEqualTo("team-a");
        assertThat(Jobs.periodic("a", EVERY_MINUTE).namespace("x".repeat(63)).execute(context -> { }).namespace())
                .hasSize(63);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Team-A", "-a", "a-", "a_b", "a.b", "é"})
    void invalidNamespaceRejectedNamingFieldAndValue(String namespace) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("a", EVERY_MINUTE).namespace(namespace))
                .withMessageStartingWith("namespace must")
                .withMessageEndingWith("was '" + namespace + "'");
        assertThatIllegalArgumentException().isThrownBy(() -> Jobs.periodic("a", EVERY_MINUTE)
                .namespace("x".repeat(64)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", " padded", "tab\there"})
    void invalidNameRejectedNamingFieldAndValue(String name) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic(name, EVERY_MINUTE))
                .withMessageStartingWith("name must")
                .withMessageEndingWith("was '" + name + "'");
    }

    @Test
    void overlongNameRejectedWithItsLength() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("n".repeat(151), EVERY_MINUTE))
                .withMessageStartingWith("name must be at most 150 UTF-16 code units (a character beyond U+FFFF, "
                        + "such as an emoji, counts two), was 151 units: ");
    }

    @Test
    void nameLengthCountsUtf16UnitsSoSeventyFiveEmojiFitAndSeventySixDoNot() {
        String emoji = "\uD83D\uDE00";

        assertThat(Jobs.periodic(emoji.repeat(75), EVERY_MINUTE).execute(context -> { }).name()).hasSize(150);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic(emoji.repeat(76), EVERY_MINUTE))
                .withMessageStartingWith("name must be at most 150 UTF-16 code units (a character beyond U+FFFF, "
                        + "such as an emoji, counts two), was 152 units: ");
    }

    @Test
    void overlongNameShownInTheMessageIsNeverCutInsideAnEmoji() {
        String emoji = "\uD83D\uDE00";

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("n" + emoji.repeat(75), EVERY_MINUTE))
                .withMessageEndingWith("was 151 units: 'n" + emoji.repeat(19) + "...'");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1})
    void nonPositiveLockRejectedNamingFieldAndValue(long seconds) {
        Duration lock = Duration.ofSeconds(seconds);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Jobs.periodic("j", EVERY_MINUTE).lockAtMostFor(lock))
                .withMessage("lockAtMostFor must be positive, was " + lock);
    }

    @Test
    void missingScheduleRejectedNamingField() {
        assertThatNullPointerException()
                .isThrownBy(() -> Jobs.periodic("j", null))
                .withMessage("schedule must not be null");
    }

    /** Only its identity matters to these tests. */
    private static final class FixedContext implements JobContext {
        @Override
        public String jobName() {
            return "invoice-reminders";
        }

        @Override
        public Instant scheduledAt() {
            return Instant.EPOCH;
        }

        @Override
        public Connection connection() {
            throw new UnsupportedOperationException();
        }

        @Override
        public IdempotencyKey dispatch(TaskRequest task) {
            throw new UnsupportedOperationException();
        }

        @Override
        public IdempotencyKey keyFor(String task, Entity entity) {
            return IdempotencyKey.of(jobName(), scheduledAt(), task, entity);
        }
    }
}
