package dev.onebeat.scheduler.web.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JsonProblemsTest {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    record Step(String name, List<String> tags) {
    }

    record Plan(String title, List<Step> steps) {
    }

    @Test
    void nestedFieldIsNamedByItsJsonPathAndItsValueQuoted() {
        String body = "{\"title\":\"t\",\"steps\":[{\"name\":\"a\"},{\"name\":\"b\",\"tags\":\"urgent\"}]}";

        assertThat(describe(body, true)).isEqualTo("steps[1].tags: expected a list, got \"urgent\"");
    }

    @Test
    void withoutTheTreeTheOffendingTokenIsNamed() {
        assertThat(describe("{\"title\":{\"x\":1}}", false)).isEqualTo("title: expected a string, got an object");
    }

    @Test
    void unknownNestedFieldIsNamedWithTheKnownOnes() {
        assertThat(describe("{\"steps\":[{\"nmae\":\"a\"}]}", true))
                .isEqualTo("steps[0].nmae: is not a field; known fields are [name, tags]");
    }

    @Test
    void brokenSyntaxGivesLineAndColumn() {
        JacksonException e = catchThrowableOfType(JacksonException.class, () -> JSON.readTree("{\n\"title\" \"t\"}"));

        assertThat(JsonProblems.describe(e, null)).startsWith("request body is not valid JSON: ")
                .endsWith("(line 2, column 9)");
    }

    @Test
    void longValueIsCutShort() {
        String body = "{\"steps\":\"" + "x".repeat(200) + "\"}";

        assertThat(describe(body, true)).hasSizeLessThan(100).endsWith("...");
    }

    private static String describe(String body, boolean withTree) {
        JsonNode tree = JSON.readTree(body);
        JacksonException e = catchThrowableOfType(JacksonException.class, () -> JSON.treeToValue(tree, Plan.class));
        return JsonProblems.describe(e, withTree ? tree : null);
    }
}
