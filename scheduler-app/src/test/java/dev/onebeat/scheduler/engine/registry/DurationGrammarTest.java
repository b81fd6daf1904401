package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.job.Durations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.convert.DurationStyle;

/**
 * A job definition's durations are read by {@link Durations}, settings such as
 * {@code onebeat.runtime-jobs-poll} by Spring Boot's binder: the same text must mean the same duration in both.
 */
class DurationGrammarTest {

    @ParameterizedTest
    @ValueSource(strings = {"0", "750", "250ns", "250us", "500ms", "10s", "2m", "1h", "1d", "1H", "500MS", "-5s",
            "+5s", "PT10S", "PT1.5S", "pt1m", "P1DT1S", "-PT1S"})
    void readsEveryDurationSpringBootConfigurationReadsTheSameWay(String text) {
        assertThat(Durations.parse(text)).isEqualTo(DurationStyle.detectAndParse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "5w", "1.5s", "s", "P", "1 day"})
    void refusesWhatSpringBootConfigurationRefuses(String text) {
        assertThatThrownBy(() -> DurationStyle.detectAndParse(text)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDefinitionsDurationThatIsNoneOfTheFormsIsRefusedNamingPathJobFieldAndValue() {
        JobsProperties.Definition definition = JobsProperties.Definition.builder("x").every("1h").task("t")
                .lockAtMostFor("soon").build();

        assertThatThrownBy(() -> DeclarativeJobs.toJob("onebeat.jobs[0]", definition))
                .isInstanceOf(JobDefinitionException.class)
                .hasMessage("onebeat.jobs[0] (job 'x').lock-at-most-for: 'soon' is not a duration such as 500ms, 10s, "
                        + "2m or PT10S");
    }

    @Test
    void anIntervalIsReadWithTheSameGrammar() {
        JobsProperties.Definition definition = JobsProperties.Definition.builder("x").every(" 90 s ").task("t").build();

        assertThat(DeclarativeJobs.toJob("onebeat.jobs[0]", definition).schedule().describe())
                .isEqualTo(Schedules.parse("", null, "PT1M30S", null).describe());
    }
}
