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
