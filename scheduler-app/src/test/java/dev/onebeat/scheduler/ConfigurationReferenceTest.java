package dev.onebeat.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.testsupport.docs.ConfigurationReference;
import dev.onebeat.testsupport.docs.ConfigurationReference.RecordSources;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} is the scheduler's configuration metadata rendered ({@link ConfigurationReference}):
 * every {@code onebeat.*} property described, the fields of the records that map- and list-valued ones hold too, and
 * the page current.
 */
class ConfigurationReferenceTest {

    static final ConfigurationReference REFERENCE = new ConfigurationReference("Configuration reference", """
            Every `onebeat.*` property of the scheduler, generated from the configuration metadata that ships in
            `scheduler-app.jar` (`META-INF/spring-configuration-metadata.json`, which IDEs read to complete and
            explain these properties). Set them as Spring Boot reads any property: `application.yaml`, environment
            variables (`ONEBEAT_RELAY_BATCH_SIZE`), or `--onebeat.relay.batch-size=1000`. Durations take `500ms`,
            `30s`, `5m` or ISO-8601 (`PT30S`). The fields of each broker, queue route, declared job, user and token
            (maps and lists of records) follow their property's table; how to use them: [the relay](relay.md) and
            [jobs in configuration](jobs-in-configuration.md). The worker kit's properties:
            [worker kit configuration](worker-kit-configuration.md).
            """, "onebeat.", "ConfigurationReferenceTest");

    @Test
    void everyOnebeatPropertyIsDescribedAndThePageIsCurrent() throws IOException {
        int properties = REFERENCE.check(Path.of("target/classes/META-INF/spring-configuration-metadata.json"),
                new RecordSources(List.of(Path.of("src/main/java")), getClass().getClassLoader(), "dev.onebeat."),
                Path.of("../docs/configuration.md"), Path.of("target/configuration.md"));
        assertThat(properties).isGreaterThan(50);
    }
}
