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
                .hasMessageStartingWith("consumer must be at most 200 characters, was 201");
    }
}
