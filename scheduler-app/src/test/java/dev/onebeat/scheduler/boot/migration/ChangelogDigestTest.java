package dev.onebeat.scheduler.boot.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
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
        assertThat(digest("db/onebeat/changelog-master.xml")).as("no prefix: the class path").isEqualTo(first);
    }

    @Test
    void anIncludedFileWhoseContentDiffersChangesTheDigestOfTheSameMaster() throws IOException {
        // the same master.xml, its included sub/two.sql (named relative to it) served with other content
        ResourceLoader changedInclude = new DefaultResourceLoader() {
            @Override
            public Resource getResource(String location) {
                return super.getResource(location.endsWith("db/digest/sub/two.sql")
                        ? "classpath:db/digest/sub/two-changed.sql" : location);
            }
        };

        Optional<String> master = digest("classpath:db/digest/master.xml");
        Optional<String> changed = ChangelogDigest.of(changedInclude, "classpath:db/digest/master.xml");

        assertThat(master).isPresent();
        assertThat(changed).isPresent().isNotEqualTo(master);
    }

    @Test
    void aParametersValueFromASystemPropertyChangesTheDigest() throws IOException {
        Optional<String> without = digest("classpath:db/digest/parameter.sql");
        System.setProperty("digest_test_suffix", "other");
        try {
            assertThat(digest("classpath:db/digest/parameter.sql")).isPresent().isNotEqualTo(without);
        } finally {
            System.clearProperty("digest_test_suffix");
        }
        assertThat(digest("classpath:db/digest/parameter.sql")).isEqualTo(without);
    }

    @Test
    void whatIsNotFollowedLeavesNoDigestSoLiquibaseRunsAsBefore() throws IOException {
        assertThat(digest("classpath:db/digest/include-all.xml")).as("includeAll").isEmpty();
        assertThat(digest("classpath:db/digest/optional-include.xml")).as("include errorIfMissing").isEmpty();
        assertThat(digest("classpath:db/digest/sql-file.xml")).as("sqlFile path").isEmpty();
        assertThat(digest("classpath:db/digest/run-always.sql")).as("runAlways").isEmpty();
        assertThat(digest("classpath:db/digest/run-always-lower.sql")).as("runalways").isEmpty();
        assertThat(digest("classpath:db/digest/precondition.sql")).as("precondition").isEmpty();
        assertThat(digest("classpath:db/digest/doctype.xml")).as("DOCTYPE").isEmpty();
        assertThat(digest("classpath:db/digest/master.yaml")).as("YAML").isEmpty();
        assertThat(digest("file:/tmp/changelog.xml")).as("not on the class path").isEmpty();
        assertThat(digest("classpath*:db/digest/master.xml")).as("classpath*").isEmpty();
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
