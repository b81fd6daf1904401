package dev.onebeat.scheduler.boot.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;

class ChangelogDigestTest {

    private final ResourceLoader resources = new DefaultResourceLoader();

    private Optional<String> digest(String changeLog) throws IOException {
        return ChangelogDigest.of(resources, changeLog);
    }

    @Test
    void theApplicationsChangelogHasADigestThatAnotherReadingRepeats() throws IOException {
        Optional<String> first = digest("classpath:db/onebeat/changelog-master.xml");

        assertThat(first).get().asString().hasSize(64);
        assertThat(digest("classpath:/db/onebeat/changelog-master.xml")).as("same path, leading slash").isEqualTo(first);
    }

    @Test
    void anIncludedFileWhoseContentDiffersChangesTheDigest() throws IOException {
        Optional<String> master = digest("classpath:db/digest/master.xml");
        Optional<String> changed = digest("classpath:db/digest/master-changed.xml");

        assertThat(master).isPresent();
        assertThat(changed).isPresent().isNotEqualTo(master);
    }

    @Test
    void aFileIncludedRelativeToItsChangelogIsFollowed() throws IOException {
        // sub/two.sql is named relative to db/digest/master.xml: were it not found, reading would fail
        assertThat(digest("classpath:db/digest/master.xml")).isPresent();
    }

    @Test
    void whatIsNotFollowedLeavesNoDigestSoLiquibaseRunsAsBefore() throws IOException {
        assertThat(digest("classpath:db/digest/include-all.xml")).as("includeAll").isEmpty();
        assertThat(digest("classpath:db/digest/sql-file.xml")).as("sqlFile path").isEmpty();
        assertThat(digest("classpath:db/digest/run-always.sql")).as("runAlways").isEmpty();
        assertThat(digest("classpath:db/digest/master.yaml")).as("YAML").isEmpty();
    }

    @Test
    void aMissingIncludedFileFailsNamingIt() {
        assertThatThrownBy(() -> digest("classpath:db/digest/missing.xml"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("db/digest/not-there.sql");
    }

    @Test
    void theLiquibaseReleaseIsNamedByItsJar() {
        assertThat(ChangelogDigest.liquibaseRelease()).matches("liquibase-core-[0-9.]+\\.jar");
    }
}
