package dev.onebeat.testsupport.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.testsupport.docs.ConfigurationReference.RecordSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigurationReferenceTest {

    private static final ConfigurationReference REFERENCE = new ConfigurationReference("Sample", "Intro.", "sample.",
            "ConfigurationReferenceTest");
    private static final RecordSources SOURCES = new RecordSources(List.of(Path.of("src/test/java")),
            ConfigurationReferenceTest.class.getClassLoader(), "dev.onebeat.");

    @TempDir
    Path dir;

    @Test
    void theFieldsOfMapValuesAndListElementsAreRenderedUnderTheirPropertyDescribedFromTheirJavadoc()
            throws IOException {
        Path metadata = metadata(property("sample.brokers", "java.util.Map<java.lang.String,"
                + "dev.onebeat.testsupport.docs.SampleProperties$Broker>", "connections by name"),
                property("sample.jobs", "java.util.List<dev.onebeat.testsupport.docs.SampleProperties$Job>",
                        "declared jobs"),
                property("sample.enabled", "java.lang.Boolean", "whether it runs"));

        assertThatThrownBy(() -> REFERENCE.check(metadata, SOURCES, dir.resolve("page.md"), dir.resolve("fresh.md")))
                .hasMessageContaining("is stale");
        String page = Files.readString(dir.resolve("fresh.md"));

        assertThat(page).contains("""
                ### `sample.brokers.<broker>.*`

                Each value of `sample.brokers`.

                | field | type | default | description |
                |---|---|---|---|
                | `url` | `String` |  | where it is, on two lines |
                | `options` | `Map<String, String>` |  | passed on as they are |
                """);
        assertThat(page).contains("""
                ### `sample.jobs[i].*`

                Each element of `sample.jobs`.

                | field | type | default | description |
                |---|---|---|---|
                | `name` | `String` |  | unique name |
                | `lock-at-most-for` | `Duration` | `1m` | the `lock`'s limit |
                | `retry` | `Retry` |  | how a failure is tried again |
                | `retry.attempts` | `int` |  | how many |
                | `channels` | `Map<String, Channel>` |  | where its alerts go |
                | `channels.<channel>.url` | `String` |  | where its events go |
                """);
        assertThat(page).contains("| `sample.enabled` |  | whether it runs |\n")
                .doesNotContain("### `sample.enabled");
        // the fields follow their group's table, before the next group
        assertThat(page.indexOf("### `sample.brokers")).isGreaterThan(page.indexOf("| `sample.brokers` |"))
                .isLessThan(page.indexOf("## `sample.enabled`"));

        Files.copy(dir.resolve("fresh.md"), dir.resolve("page.md"));
        assertThat(REFERENCE.check(metadata, SOURCES, dir.resolve("page.md"), dir.resolve("fresh.md"))).isEqualTo(3);
    }

    @Test
    void aRecordFieldWithoutAnAtParamLineFailsNamingIt() throws IOException {
        Path metadata = metadata(property("sample.hooks", "java.util.Map<java.lang.String,"
                + "dev.onebeat.testsupport.docs.SampleProperties$Hook>", "hooks by name"));

        assertThatThrownBy(() -> REFERENCE.check(metadata, SOURCES, dir.resolve("page.md"), dir.resolve("fresh.md")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("record fields without a description")
                .hasMessageContaining("SampleProperties$Hook.url")
                .hasMessageContaining("SampleProperties$Hook.timeout");
    }

    @Test
    void withoutSourcesTheMetadataAloneIsRendered() throws IOException {
        Path metadata = metadata(property("sample.hooks", "java.util.Map<java.lang.String,"
                + "dev.onebeat.testsupport.docs.SampleProperties$Hook>", "hooks by name"));

        assertThatThrownBy(() -> REFERENCE.check(metadata, dir.resolve("page.md"), dir.resolve("fresh.md")))
                .hasMessageContaining("is stale");
        assertThat(Files.readString(dir.resolve("fresh.md"))).contains("| `sample.hooks` |  | hooks by name |")
                .doesNotContain("###");
    }

    private static String property(String name, String type, String description) {
        return """
                {"name": "%s", "type": "%s", "description": "%s", "sourceType": "x"}""".formatted(name, type,
                description);
    }

    private Path metadata(String... properties) throws IOException {
        Path file = dir.resolve("metadata.json");
        Files.writeString(file, "{\"properties\": [" + String.join(",", properties) + "]}");
        return file;
    }
}
