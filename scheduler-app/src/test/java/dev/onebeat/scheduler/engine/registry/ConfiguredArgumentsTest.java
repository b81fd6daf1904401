package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfiguredArgumentsTest {

    @Test
    void textThatReadsAsAJsonValueIsThatValue() {
        assertThat(ConfiguredArguments.typed(Arrays.<Object>asList("2", "-7", "2.5", "1e3", "true", "false", "null",
                "[1, \"a\", [true]]", "{\"a\": 1, \"b\": [null]}", "\"2\"")))
                .containsExactly(2, -7, 2.5, 1000.0, true, false, null, List.of(1, "a", List.of(true)),
                        Map.of("a", 1, "b", Arrays.asList((Object) null)), "2");
    }

    @Test
    void textThatDoesNotStaysText() {
        assertThat(ConfiguredArguments.typed(Arrays.<Object>asList("hello", "007", "+1", "0x10", "1e", "[draft]",
                "{not json}", "True", " 2 x", "")))
                .containsExactly("hello", "007", "+1", "0x10", "1e", "[draft]", "{not json}", "True", " 2 x", "");
    }

    @Test
    void valuesThatAreTypedAlreadyAndNestedTextAreHandledAlike() {
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("count", 3);
        kwargs.put("ratio", "0.125");
        kwargs.put("nested", new LinkedHashMap<>(Map.of("flag", "true")));
        kwargs.put("list", Arrays.asList("1", 2));

        assertThat(ConfiguredArguments.typed(kwargs)).isEqualTo(Map.of("count", 3, "ratio", 0.125,
                "nested", Map.of("flag", true), "list", List.of(1, 2)));
        assertThat(ConfiguredArguments.typed((List<Object>) null)).isNull();
    }
}
