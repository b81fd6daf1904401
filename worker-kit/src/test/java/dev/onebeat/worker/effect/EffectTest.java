package dev.onebeat.worker.effect;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;

class EffectTest {

    @Test
    void blankKeyIsRejectedNamingTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Effect(" ", "email", "https://x", "{}"))
                .withMessage("idempotencyKey must not be blank, was ' '");
    }

    @Test
    void keyLongerThanTheColumnIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Effect("k".repeat(321), "email", "https://x", "{}"))
                .withMessageStartingWith("idempotencyKey must be at most 320 characters, was 321");
    }

    @Test
    void keyOfExactlyTheColumnWidthIsAccepted() {
        assertThatCode(() -> new Effect("k".repeat(320), "email", "https://x", "")).doesNotThrowAnyException();
    }

    @Test
    void missingChannelAndDestinationAreRejectedNamingTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Effect("key", null, "https://x", "{}"))
                .withMessage("channel must not be blank, was null");
        assertThatIllegalArgumentException().isThrownBy(() -> new Effect("key", "email", "", "{}"))
                .withMessage("destination must not be blank, was ''");
    }

    @Test
    void nullPayloadIsRejected() {
        assertThatNullPointerException().isThrownBy(() -> new Effect("key", "email", "https://x", null))
                .withMessage("payload must not be null");
    }
}
