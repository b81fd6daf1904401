package dev.onebeat.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class TaskRequestTest {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "\t"})
    void blankTaskRejectedNamingFieldAndValue(String task) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TaskRequest.of(task, "emails"))
                .withMessage("task must not be blank, was '" + task + "'");
    }

    @Test
    void namesLongerThanTheOutboxColumnsAreRejectedNamingFieldAndLength() {
        assertThat(TaskRequest.of("t".repeat(255), "q".repeat(255)).task()).hasSize(255);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TaskRequest.of("t".repeat(256), "emails"))
                .withMessage("task must have at most 255 characters, had 256 ('" + "t".repeat(40) + "…')");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TaskRequest.of("send", "q".repeat(300)))
                .withMessageStartingWith("queue must have at most 255 characters, had 300");
    }

    @Test
    void entityIdsUpToTheLimitAreKeptWholeAndLongerOnesRejectedSayingWhatToDo() {
        assertThat(Entity.of("customer", "7".repeat(Entity.MAX_ID_LENGTH)).id()).hasSize(4096);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Entity.of("customer", "7".repeat(4097)))
                .withMessage("entity.id must have at most 4096 characters, had 4097 ('" + "7".repeat(40) + "…'); use a"
                        + " shorter identifier, such as a hash of it");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Entity.of("c".repeat(256), 1))
                .withMessageStartingWith("entity.type must have at most 255 characters, had 256");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Entity.of("customer", "a\u0000b"))
                .withMessage("entity.id must not hold a NUL character (\\u0000), which PostgreSQL cannot store");
    }

    @Test
    void blankQueueRejectedNamingFieldAndValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TaskRequest.builder("send_reminder").queue(" ").build())
                .withMessage("queue must not be blank, was ' '");
    }

    @Test
    void ofHasNoEntityNoArgumentsAndNoDelay() {
        TaskRequest request = TaskRequest.of("send_reminder", "emails");

        assertThat(request.entity()).isNull();
        assertThat(request.args()).isEmpty();
        assertThat(request.kwargs()).isEmpty();
        assertThat(request.notBefore()).isNull();
    }

    @Test
    void builderDefaultsToDefaultQueue() {
        assertThat(TaskRequest.builder("send_reminder").build().queue()).isEqualTo(TaskRequest.DEFAULT_QUEUE);
    }

    @Test
    void builderCollectsOptionalParts() {
        Instant notBefore = Instant.parse("2026-11-29T09:00:00Z");

        TaskRequest request = TaskRequest.builder("send_reminder")
                .queue("emails")
                .entity("order", 42)
                .args("a", 1, null)
                .kwargs(Map.of("urgent", true))
                .notBefore(notBefore)
                .build();

        assertThat(request.entity()).isEqualTo(new Entity("order", "42"));
        assertThat(request.args()).containsExactly("a", 1, null);
        assertThat(request.kwargs()).containsExactly(Map.entry("urgent", true));
        assertThat(request.notBefore()).isEqualTo(notBefore);
    }

    @Test
    void argumentsAreCopiedAndUnmodifiable() {
        List<Object> args = new ArrayList<>(List.of("a"));
        Map<String, Object> kwargs = new HashMap<>(Map.of("k", "v"));

        TaskRequest request = new TaskRequest("t", "q", null, args, kwargs, null);
        args.add("b");
        kwargs.put("k2", "v2");

        assertThat(request.args()).containsExactly("a");
        assertThat(request.kwargs()).containsOnlyKeys("k");
        assertThatThrownBy(() -> request.args().add("c")).isInstanceOf(UnsupportedOperationException.class);
    }
}
