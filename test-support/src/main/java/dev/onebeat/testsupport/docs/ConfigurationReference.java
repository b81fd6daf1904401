package dev.onebeat.testsupport.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A configuration reference page made from Spring Boot's configuration metadata, not kept by hand: the annotation
 * processor writes {@code META-INF/spring-configuration-metadata.json} from a module's {@code @ConfigurationProperties}
 * records (their {@code @param} Javadoc and {@code @DefaultValue}s), IDEs complete and explain the properties from it,
 * and a module's test renders it into its page of {@code docs/} with {@link #check}.
 *
 * @param title the page's title
 * @param intro what the page covers and how to set the properties, Markdown
 * @param prefix the properties shown, such as {@code onebeat.}
 * @param test the test that writes the page, named on it
 */
public record ConfigurationReference(String title, String intro, String prefix, String test) {

    /**
     * Fails when a property under the prefix has no description, or when {@code page} is not what the metadata renders
     * to; the fresh rendering is left in {@code rendered} either way, to copy over the page.
     *
     * @return the properties rendered
     */
    public int check(Path metadata, Path page, Path rendered) throws IOException {
        return check(metadata, null, page, rendered);
    }

    /**
     * As {@link #check(Path, Path, Path)}, and the fields of the records that map- and list-valued properties hold
     * ({@code onebeat.relay.brokers.<name>.url}) rendered under their property's group, described from the records'
     * {@code @param} Javadoc in {@code sources}; a field with none fails too.
     *
     * @param sources where the records' source is read, with the classes on this test's class path
     */
    public int check(Path metadata, RecordSources sources, Path page, Path rendered) throws IOException {
        if (!Files.isRegularFile(metadata)) {
            throw new AssertionError("no configuration metadata at " + metadata + " (mvn compile writes it)");
        }
        List<JsonNode> properties = read(metadata);
        if (properties.isEmpty()) {
            throw new AssertionError("no " + prefix + "* property in " + metadata);
        }
        List<String> undescribed = properties.stream()
                .filter(property -> property.path("description").asString("").isBlank())
                .map(property -> property.path("name").asString() + " (" + property.path("sourceType").asString() + ")")
                .toList();
        if (!undescribed.isEmpty()) {
            throw new AssertionError("properties without a description (give the record component an @param line): "
                    + undescribed);
        }
        String fresh = render(properties, sources == null ? null
                : new RecordFields(sources.roots(), sources.loader(), sources.packagePrefix()));
        Files.createDirectories(rendered.toAbsolutePath().getParent());
        Files.writeString(rendered, fresh, StandardCharsets.UTF_8);
        String current = Files.isRegularFile(page) ? Files.readString(page, StandardCharsets.UTF_8) : "";
        if (!current.equals(fresh)) {
            throw new AssertionError(page + " is stale: copy " + rendered + " over it");
        }
        return properties.size();
    }

    private List<JsonNode> read(Path metadata) throws IOException {
        List<JsonNode> properties = new ArrayList<>();
        JsonMapper.builder().build().readTree(metadata.toFile()).path("properties").forEach(property -> {
            if (property.path("name").asString().startsWith(prefix)) {
                properties.add(property);
            }
        });
        properties.sort(Comparator.comparing(property -> property.path("name").asString()));
        return properties;
    }

    /** The page: the intro, then one table per group of properties ({@code onebeat.relay}, ...) with defaults. */
    String render(List<JsonNode> properties, RecordFields records) throws IOException {
        Map<String, List<JsonNode>> byGroup = new TreeMap<>();
        for (JsonNode property : properties) {
            String[] parts = property.path("name").asString().split("\\.");
            byGroup.computeIfAbsent(parts[0] + "." + parts[1], group -> new ArrayList<>()).add(property);
        }
        StringBuilder page = new StringBuilder("# ").append(title).append("\n\n").append(intro.strip())
                .append("\n\nThis page is written by the build (`").append(test).append("`) from the configuration ")
                .append("metadata; edit the `@param` Javadoc of the properties record instead.\n\n")
                .append(properties.size()).append(" properties.\n");
        for (Map.Entry<String, List<JsonNode>> group : byGroup.entrySet()) {
            page.append("\n## `").append(group.getKey())
                    .append("`\n\n| property | default | description |\n|---|---|---|\n");
            List<String> elements = new ArrayList<>();
            for (JsonNode property : group.getValue()) {
                String name = property.path("name").asString();
                page.append("| `").append(name).append("` | ")
                        .append(defaultValue(property)).append(" | ")
                        .append(cell(property.path("description").asString(""))).append(deprecation(property))
                        .append(" |\n");
                if (records != null) {
                    Optional<RecordFields.Element> element = records.element(property.path("type").asString(""), name);
                    if (element.isPresent()) {
                        elements.add(fieldsTable(records, name, element.get()));
                    }
                }
            }
            elements.forEach(page::append);
        }
        return page.toString();
    }

    /** The fields of one map value or list element, under a heading that names where they are written. */
    private static String fieldsTable(RecordFields records, String property, RecordFields.Element element)
            throws IOException {
        String base = property + element.segment();
        StringBuilder table = new StringBuilder("\n### `").append(base).append(".*`\n\n")
                .append("Each ").append(element.segment().startsWith("[") ? "element of" : "value of").append(" `")
                .append(property).append("`.\n\n| field | type | default | description |\n|---|---|---|---|\n");
        for (RecordFields.Field field : records.fields(element.type(), "")) {
            table.append("| `").append(field.path().substring(1)).append("` | `").append(field.type())
                    .append("` | ").append(field.defaultValue() == null ? "" : field.defaultValue().isEmpty()
                            ? "(empty)" : "`" + field.defaultValue() + "`")
                    .append(" | ").append(cell(field.description())).append(" |\n");
        }
        return table.toString();
    }

    /**
     * Where the records that map- and list-valued properties hold are read from.
     *
     * @param roots source roots, such as {@code src/main/java}
     * @param loader the class loader of the records
     * @param packagePrefix only records of packages under this are followed
     */
    public record RecordSources(List<Path> roots, ClassLoader loader, String packagePrefix) {
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
