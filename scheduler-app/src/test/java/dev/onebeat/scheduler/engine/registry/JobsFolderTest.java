package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobsFolderTest {

    @TempDir
    Path folder;

    @Test
    void jobListedInAJarOfTheJobsFolderIsRegistered() throws IOException {
        jar("reports.jar", FolderJob.class.getName());

        List<RegisteredJob> jobs = JobRegistryConfiguration.serviceProviders(
                JobRegistryConfiguration.jobsFolderLoader(folder));

        assertThat(jobs).extracting(RegisteredJob::name, RegisteredJob::origin)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("folder-job", "service " + FolderJob.class.getName()));
    }

    @Test
    void missingFolderAddsNothing() {
        assertThat(JobRegistryConfiguration.serviceProviders(
                JobRegistryConfiguration.jobsFolderLoader(folder.resolve("absent")))).isEmpty();
    }

    @Test
    void providerThatCannotBeLoadedStopsStartupNamingIt() throws IOException {
        jar("broken.jar", "com.example.NoSuchJob");

        assertThatThrownBy(() -> JobRegistryConfiguration.serviceProviders(
                JobRegistryConfiguration.jobsFolderLoader(folder)))
                .isInstanceOf(JobDefinitionException.class)
                .hasMessageContaining("com.example.NoSuchJob");
    }

    private void jar(String name, String provider) throws IOException {
        try (OutputStream file = Files.newOutputStream(folder.resolve(name));
             JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry("META-INF/services/dev.onebeat.job.PeriodicJob"));
            jar.write((provider + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }
}
