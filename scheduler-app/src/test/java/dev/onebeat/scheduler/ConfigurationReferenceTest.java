package dev.onebeat.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration reference is Spring Boot's configuration metadata, not prose kept by hand: the annotation processor
 * writes {@code META-INF/spring-configuration-metadata.json} from the {@code @ConfigurationProperties} records (their
 * {@code @param} Javadoc and {@code @DefaultValue}s), IDEs complete and explain {@code onebeat.*} from it, and this test
 * renders it into {@code docs/configuration.md}. It fails when a property has no description, or when the page in
 * {@code docs/} is not what the metadata renders to (the fresh rendering is left in {@code target/configuration.md}).
 */
class ConfigurationReferenceTest {

    private static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");
    private static final Path PAGE = Path.of("../docs/configuration.md");
    private static final Path RENDERED = Path.of("target/configuration.md");

    private static List<JsonNode> properties;

    @BeforeAll
    static void readMetadata() throws IOException {
        assertThat(METADATA).as("the configuration processor's output (mvn compile writes it)").isRegularFile();
        JsonNode metadata = JsonMapper.builder().build().readTree(METADATA.toFile());
        properties = new ArrayList<>();
        metadata.path("properties").forEach(property -> {
            if (property.path("name").asString().startsWith("onebeat.")) {
                properties.add(property);
            }
        });
        properties.sort(Comparator.comparing(property -> property.path("name").asString()));
    }

    @Test
    void everyOnebeatPropertyIsDescribed() {
        assertThat(properties).as("onebeat.* properties in the metadata").hasSizeGreaterThan(50);
        assertThat(properties).filteredOn(property -> property.path("description").asString("").isBlank())
                .extracting(property -> property.path("name").asString() + " (" + property.path("sourceType").asString()
                        + ")")
                .as("properties without a description: give the record component an @param line")
                .isEmpty();
    }

    @Test
    void theReferencePageIsWhatTheMetadataRendersTo() throws IOException {
        String rendered = render(properties);
        Files.writeString(RENDERED, rendered, StandardCharsets.UTF_8);
        String page = Files.isRegularFile(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
        assertThat(page).as("docs/configuration.md is stale: cp scheduler-app/target/configuration.md docs/")
                .isEqualTo(rendered);
    }

    /** One table per prefix ({@code onebeat.relay}, {@code onebeat.fire} ...), each property with its default. */
    static String render(List<JsonNode> properties) {
        Map<String, List<JsonNode>> byPrefix = new TreeMap<>();
        for (JsonNode property : properties) {
            String[] parts = property.path("name").asString().split("\\.");
            byPrefix.computeIfAbsent(parts[0] + "." + parts[1], prefix -> new ArrayList<>()).add(property);
        }
        StringBuilder page = new StringBuilder("""
                # Configuration reference

                Every `onebeat.*` property of the scheduler, generated from the configuration metadata that ships in
                `scheduler-app.jar` (`META-INF/spring-configuration-metadata.json`, which IDEs read to complete and
                explain these properties). Set them as Spring Boot reads any property: `application.yaml`, environment
                variables (`ONEBEAT_RELAY_BATCH_SIZE`), or `--onebeat.relay.batch-size=1000`. Durations take `500ms`,
                `30s`, `5m` or ISO-8601 (`PT30S`).

                This page is written by the build (`ConfigurationReferenceTest`); edit the `@param` Javadoc of the
                properties record instead.
                """);
        page.append('\n').append(properties.size()).append(" properties.\n");
        byPrefix.forEach((prefix, group) -> {
            page.append("\n## `").append(prefix).append("`\n\n| property | default | description |\n|---|---|---|\n");
            for (JsonNode property : group) {
                page.append("| `").append(property.path("name").asString()).append("` | ")
                        .append(defaultValue(property)).append(" | ")
                        .append(cell(property.path("description").asString(""))).append(deprecation(property))
                        .append(" |\n");
            }
        });
        return page.toString();
    }

    private static String defaultValue(JsonNode property) {
        JsonNode value = property.get("defaultValue");
        if (value == null || value.isNull()) {
            return "";
        }
        String text = value.isArray() ? String.join(", ", value.valueStream().map(JsonNode::asString).toList())
                : value.asString();
        return text.isEmpty() ? "(empty)" : "`" + text.replace("|", "\\|") + "`";
    }

    private static String deprecation(JsonNode property) {
        JsonNode deprecation = property.get("deprecation");
        if (deprecation == null) {
            return "";
        }
        String replacement = deprecation.path("replacement").asString("");
        return " **Deprecated**" + (replacement.isEmpty() ? "" : ": use `" + replacement + "`")
                + (deprecation.hasNonNull("reason") ? " (" + cell(deprecation.get("reason").asString()) + ")" : "");
    }

    /** The description on one line of a table: the processor keeps the Javadoc's line breaks and inline tags. */
    static String cell(String text) {
        return code(text).replaceAll("\\s+", " ").replace("|", "\\|").strip();
    }

    /** {@code {@code x}}, {@code {@link x}} and {@code {@value x}} as Markdown code, braces inside them kept. */
    static String code(String text) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int tag = text.indexOf("{@", at);
            int space = tag < 0 ? -1 : text.indexOf(' ', tag);
            if (tag < 0 || space < 0) {
                return out.append(text, at, text.length()).toString();
            }
            int depth = 1;
            int end = space + 1;
            for (; end < text.length() && depth > 0; end++) {
                depth += text.charAt(end) == '{' ? 1 : text.charAt(end) == '}' ? -1 : 0;
            }
            out.append(text, at, tag).append('`').append(text, space + 1, end - 1).append('`');
            at = end;
        }
    }
}
