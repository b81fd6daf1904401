package dev.onebeat.worker.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.testsupport.docs.ConfigurationReference;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code docs/worker-kit-configuration.md} is the worker kit's configuration metadata rendered, and current. */
class WorkerKitConfigurationReferenceTest {

    @Test
    void everyWorkerPropertyIsDescribedAndThePageIsCurrent() throws IOException {
        ConfigurationReference reference = new ConfigurationReference("Worker kit configuration reference", """
                The `onebeat.worker.*` properties of the worker kit's Spring Boot auto-configuration, generated from the
                configuration metadata in the `worker-kit` jar, which IDEs read to complete and explain them. See
                [the worker kit](worker-kit.md) for what the queue worker and the effect sender do.
                """, "onebeat.worker.", "WorkerKitConfigurationReferenceTest");
        int properties = reference.check(Path.of("target/classes/META-INF/spring-configuration-metadata.json"),
                Path.of("../docs/worker-kit-configuration.md"), Path.of("target/worker-kit-configuration.md"));
        assertThat(properties).isEqualTo(8);
    }
}
