package dev.onebeat.worker.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JournalKeysTest {

    @Test
    void keyOfExactlyTheColumnWidthIsAccepted() {
        String key = "k".repeat(320);

        assertThat(JournalKeys.key(key)).isSameAs(key);
    }

    @Test
    void nullKeyIsRefusedByName() {
        assertThatThrownBy(() -> JournalKeys.key(null))
                .isInstanceOf(NullPointerException.class).hasMessage("key must not be null");
    }

    @Test
    void overlongConsumerIsRefusedWithItsLength() {
        assertThatThrownBy(() -> JournalKeys.consumer("c".repeat(201)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("consumer must be at most 200 characters (Unicode code points, as PostgreSQL "
                        + "counts VARCHAR), was 201");
    }

    @Test
    void limitsCountCodePointsAsTheColumnDoesSoAnEmojiCountsOne() {
        String emoji = "\uD83D\uDE00";

        assertThat(JournalKeys.key(emoji.repeat(320))).hasSize(640);
        assertThat(JournalKeys.consumer(emoji.repeat(200))).hasSize(400);
        assertThatThrownBy(() -> JournalKeys.key(emoji.repeat(321)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("key must be at most 320 characters (Unicode code points, as PostgreSQL counts "
                        + "VARCHAR), was 321: ");
    }

    @Test
    void refusedValueShownInTheMessageNeverEndsInHalfAnEmoji() {
        String key = "k" + "\uD83D\uDE00".repeat(320);

        assertThatThrownBy(() -> JournalKeys.key(key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith(": 'k" + "\uD83D\uDE00".repeat(39) + "...'");
    }

    @Test
    void unpairedSurrogateIsRefusedAsTheDriverWouldStoreAQuestionMarkInstead() {
        assertThatThrownBy(() -> JournalKeys.key("order-\uD83D"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("key must not contain an unpaired surrogate (U+D83D)");
        assertThatThrownBy(() -> JournalKeys.consumer("\uDE00shop"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("consumer must not contain an unpaired surrogate (U+DE00)");
    }

    @Test
    void nulIsRefusedByName() {
        assertThatThrownBy(() -> JournalKeys.key("a\u0000b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("key must not contain a NUL character");
    }

    @Test
    void blankMeansJavaWhitespaceSoANoBreakSpaceIsAKeyAsInPython() {
        assertThat(JournalKeys.key("\u00A0\u2007\u202F\u0085")).isEqualTo("\u00A0\u2007\u202F\u0085");
        assertThatThrownBy(() -> JournalKeys.consumer("\u3000\u2028"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("consumer must not be blank");
    }
}
