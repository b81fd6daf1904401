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
                .withMessageStartingWith("idempotencyKey must be at most 320 characters (Unicode code points, as "
                        + "PostgreSQL counts VARCHAR), was 321");
    }

    @Test
    void keyOfExactlyTheColumnWidthIsAccepted() {
        assertThatCode(() -> new Effect("k".repeat(320), "email", "https://x", "")).doesNotThrowAnyException();
    }

    @Test
    void keyAndChannelAsLongAsTheColumnsInEmojiAreAcceptedAndOneMoreIsNot() {
        String emoji = "\uD83D\uDE00";

        assertThatCode(() -> new Effect(emoji.repeat(320), emoji.repeat(100), "https://x", ""))
                .doesNotThrowAnyException();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Effect("key", emoji.repeat(101), "https://x", "{}"))
                .withMessageStartingWith("channel must be at most 100 characters (Unicode code points, as "
                        + "PostgreSQL counts VARCHAR), was 101");
    }

    @Test
    void unpairedSurrogateInTheKeyIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Effect("order-\uD83D/email", "email", "https://x", "{}"))
                .withMessageStartingWith("idempotencyKey must not contain an unpaired surrogate (U+D83D)");
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
