package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** {@code onebeat.jobs[]} entries as configuration binds them, turned into jobs by {@link DeclarativeJobs}. */
class DeclarativeJobsTest {

    @Nested
    class DaylightSavingPolicy {

        @Test
        void gapAndOverlapOfAnEntryBecomeTheCronsPolicy() {
            Schedule.Cron cron = cron(bind(Map.of("onebeat.jobs[0].name", "nightly", "onebeat.jobs[0].cron", "30 2 * * *",
                    "onebeat.jobs[0].zone", "Europe/Paris", "onebeat.jobs[0].task", "reports.nightly",
                    "onebeat.jobs[0].gap", "skip", "onebeat.jobs[0].overlap", "both")));

            assertThat(cron.dst()).isEqualTo(new DstPolicy(DstPolicy.Gap.SKIP, DstPolicy.Overlap.BOTH));
            assertThat(cron.zone()).isEqualTo(ZoneId.of("Europe/Paris"));
            assertThat(cron.describe()).isEqualTo("cron 0 30 2 * * ? Europe/Paris gap=skip overlap=both");
        }

        @Test
        void environmentVariablesSetThemToo() {
            MutablePropertySources sources = new MutablePropertySources();
            sources.addFirst(new SystemEnvironmentPropertySource(
                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<>(Map.of(
                    "ONEBEAT_JOBS_0_NAME", "nightly", "ONEBEAT_JOBS_0_CRON", "30 2 * * *",
                    "ONEBEAT_JOBS_0_TASK", "reports.nightly", "ONEBEAT_JOBS_0_GAP", "skip",
                    "ONEBEAT_JOBS_0_OVERLAP", "last"))));

            JobsProperties properties = new Binder(ConfigurationPropertySources.from(sources))
                    .bindOrCreate("onebeat", JobsProperties.class);

            assertThat(cron(properties).dst()).isEqualTo(new DstPolicy(DstPolicy.Gap.SKIP, DstPolicy.Overlap.LAST));
        }

        @Test
        void unsetRulesAreTheDefaultPolicy() {
            Schedule.Cron cron = cron(bind(Map.of("onebeat.jobs[0].name", "nightly", "onebeat.jobs[0].cron", "30 2 * * *",
                    "onebeat.jobs[0].task", "reports.nightly")));

            assertThat(cron.dst()).isEqualTo(DstPolicy.DEFAULT);
            assertThat(cron.describe()).isEqualTo("cron 0 30 2 * * ? UTC");
        }

        @Test
        void rulesAreReadInAnyCase() {
            assertThat(cron(bind(Map.of("onebeat.jobs[0].name", "nightly", "onebeat.jobs[0].cron", "30 2 * * *",
                    "onebeat.jobs[0].task", "t", "onebeat.jobs[0].gap", "SKIP"))).dst().gap())
                    .isEqualTo(DstPolicy.Gap.SKIP);
        }

        @Test
        void unknownGapIsRefusedNamingPathJobAndValue() {
            assertThatThrownBy(() -> jobs(Map.of("onebeat.jobs[0].name", "x", "onebeat.jobs[0].cron", "30 2 * * *",
                    "onebeat.jobs[0].task", "t", "onebeat.jobs[0].gap", "later")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').gap: 'later' is not one of shift, skip");
        }

        @Test
        void unknownOverlapIsRefusedNamingPathJobAndValue() {
            assertThatThrownBy(() -> jobs(Map.of("onebeat.jobs[0].name", "x", "onebeat.jobs[0].cron", "30 2 * * *",
                    "onebeat.jobs[0].task", "t", "onebeat.jobs[0].overlap", "second")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').overlap: 'second' is not one of first, last, both");
        }

        @Test
        void gapOnAnIntervalIsRefusedSayingIntervalsHaveNoDaylightSaving() {
            assertThatThrownBy(() -> jobs(Map.of("onebeat.jobs[0].name", "hb", "onebeat.jobs[0].every", "10s",
                    "onebeat.jobs[0].task", "t", "onebeat.jobs[0].gap", "skip")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'hb').gap: 'skip' applies to cron schedules only; an every "
                            + "schedule counts elapsed seconds and never meets a daylight-saving gap (remove gap, "
                            + "or use cron)");
        }

        @Test
        void overlapOnAnIntervalIsRefusedEvenWithTheDefaultValue() {
            assertThatThrownBy(() -> jobs(Map.of("onebeat.jobs[0].name", "hb", "onebeat.jobs[0].every", "10s",
                    "onebeat.jobs[0].task", "t", "onebeat.jobs[0].overlap", "first")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'hb').overlap: 'first' applies to cron schedules "
                            + "only");
        }

        @Test
        void cronMatchingOnlyTimesInAGapIsAcceptedBecauseGapShiftFiresThem() {
            // 02:30 on the last Sunday of March never exists in Paris; Quartz's calendar said it never fires
            Schedule.Cron cron = cron(bind(Map.of("onebeat.jobs[0].name", "x", "onebeat.jobs[0].cron", "0 30 2 ? 3 1L",
                    "onebeat.jobs[0].zone", "Europe/Paris", "onebeat.jobs[0].task", "t")));

            assertThat(cron.dst().gap()).isEqualTo(DstPolicy.Gap.SHIFT);
        }

        @Test
        void cronMatchingOnlyTimesInAGapIsRefusedUnderGapSkipSayingWhy() {
            assertThatThrownBy(() -> jobs(Map.of("onebeat.jobs[0].name", "x", "onebeat.jobs[0].cron", "0 30 2 ? 3 1L",
                    "onebeat.jobs[0].zone", "Europe/Paris", "onebeat.jobs[0].task", "t", "onebeat.jobs[0].gap", "skip")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').cron: '0 30 2 ? 3 1L' never fires again: every time it "
                            + "matches falls in a daylight-saving gap, and gap=skip skips it");
        }

        @Test
        void badCronIsReportedBeforeABadRule() {
            assertThatThrownBy(() -> jobs(Map.of("onebeat.jobs[0].name", "x", "onebeat.jobs[0].cron", "0 25 * * *",
                    "onebeat.jobs[0].task", "t", "onebeat.jobs[0].gap", "later")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'x').cron: ");
        }
    }

    @Nested
    class RetryAndCatchUp {

        @Test
        void unsetTheyAreThreeAttemptsWithinAnHour() {
            PeriodicJob job = job(Map.of());

            assertThat(job.retry()).isEqualTo(RetryPolicy.DEFAULT);
            assertThat(job.catchUpWindow()).isEqualTo(Duration.ofHours(1));
        }

        @Test
        void eachFieldSetsItsPartAndTheOthersKeepTheirDefault() {
            PeriodicJob job = job(Map.of("onebeat.jobs[0].retry.attempts", "5", "onebeat.jobs[0].retry.backoff", "30s",
                    "onebeat.jobs[0].catch-up-window", "2h"));

            assertThat(job.retry()).isEqualTo(new RetryPolicy(5, Duration.ofSeconds(30), Duration.ofMinutes(5)));
            assertThat(job.catchUpWindow()).isEqualTo(Duration.ofHours(2));
        }

        @Test
        void environmentVariablesSetThemToo() {
            MutablePropertySources sources = new MutablePropertySources();
            sources.addFirst(new SystemEnvironmentPropertySource(
                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<>(Map.of(
                    "ONEBEAT_JOBS_0_NAME", "nightly", "ONEBEAT_JOBS_0_EVERY", "1h", "ONEBEAT_JOBS_0_TASK", "t",
                    "ONEBEAT_JOBS_0_RETRY_ATTEMPTS", "1", "ONEBEAT_JOBS_0_RETRY_MAXBACKOFF", "1m",
                    "ONEBEAT_JOBS_0_CATCHUPWINDOW", "10m"))));

            PeriodicJob job = DeclarativeJobs.from(new Binder(ConfigurationPropertySources.from(sources))
                    .bindOrCreate("onebeat", JobsProperties.class).jobs()).get(0).job();

            assertThat(job.retry()).isEqualTo(new RetryPolicy(1, Duration.ofSeconds(10), Duration.ofMinutes(1)));
            assertThat(job.catchUpWindow()).isEqualTo(Duration.ofMinutes(10));
        }

        @Test
        void attemptsOutOfRangeAreRefusedNamingPathJobAndValue() {
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].retry.attempts", "0")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').retry.attempts: attempts must be 1 to 100, was 0");
        }

        @Test
        void aBackoffThatIsNotADurationIsRefusedNamingIt() {
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].retry.backoff", "soon")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'x').retry.backoff: ")
                    .hasMessageContaining("soon");
        }

        @Test
        void aLongestWaitShorterThanTheFirstIsRefused() {
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].retry.backoff", "1m",
                    "onebeat.jobs[0].retry.max-backoff", "30s")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').retry.max-backoff: maxBackoff must be at least backoff (PT1M),"
                            + " was PT30S");
        }

        @Test
        void aCatchUpWindowThatIsNotPositiveIsRefusedNamingIt() {
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].catch-up-window", "0s")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').catch-up-window: catchUpWindow must be positive, was PT0S");
        }

        @Test
        void maxCatchUpAndOverlapPolicyAreReadAndDefaultToTenAndBufferOne() {
            PeriodicJob plain = job(Map.of());
            PeriodicJob tuned = job(Map.of("onebeat.jobs[0].max-catch-up", "3", "onebeat.jobs[0].overlap-policy", "Skip"));

            assertThat(plain.maxCatchUp()).isEqualTo(10);
            assertThat(plain.overlapPolicy()).isEqualTo(OverlapPolicy.BUFFER_ONE);
            assertThat(tuned.maxCatchUp()).isEqualTo(3);
            assertThat(tuned.overlapPolicy()).isEqualTo(OverlapPolicy.SKIP);
        }

        @Test
        void anUnknownOverlapPolicyOrAMaxCatchUpBelowOneIsRefusedNamingIt() {
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].overlap-policy", "queue")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').overlap-policy: 'queue' is not one of [skip, buffer-one, allow]");
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].max-catch-up", "0")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').max-catch-up: maxCatchUp must be at least 1, was 0");
        }

        private static PeriodicJob job(Map<String, String> more) {
            Map<String, String> properties = new LinkedHashMap<>(Map.of("onebeat.jobs[0].name", "x",
                    "onebeat.jobs[0].every", "1h", "onebeat.jobs[0].task", "t"));
            properties.putAll(more);
            return jobs(properties).get(0).job();
        }
    }

    @Nested
    class Alerts {

        @Test
        void unsetTheyAreTheDefaultPolicy() {
            assertThat(job(Map.of()).alerts()).isEqualTo(AlertPolicy.DEFAULT);
        }

        @Test
        void eachFieldSetsItsPartAndTheOthersKeepTheirDefault() {
            PeriodicJob job = job(Map.of("onebeat.jobs[0].alerts.grace", "2m", "onebeat.jobs[0].alerts.after-failures", "3",
                    "onebeat.jobs[0].alerts.healthchecks-url", "https://hc-ping.com/5f2e",
                    "onebeat.jobs[0].alerts.sentry-monitor", "nightly-x"));

            assertThat(job.alerts()).isEqualTo(new AlertPolicy(true, Duration.ofMinutes(2), 3, 1,
                    "https://hc-ping.com/5f2e", "nightly-x"));
            assertThat(job(Map.of("onebeat.jobs[0].alerts.enabled", "false")).alerts())
                    .isEqualTo(AlertPolicy.DEFAULT.disabled());
        }

        @Test
        void theAlertQueueIsOnebeatsOwn() {
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].queue", "onebeat.alerts")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').queue: 'onebeat.alerts' is onebeat's own (alert deliveries); "
                            + "use another queue");
        }

        @Test
        void badValuesAreRefusedNamingPathJobFieldAndValue() {
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].alerts.grace", "0s")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').alerts.grace: grace must be positive, was PT0S");
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].alerts.resolve-after", "0")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').alerts.resolve-after: resolveAfter must be 1 to 1000, was 0");
            assertThatThrownBy(() -> job(Map.of("onebeat.jobs[0].alerts.healthchecks-url", "hc-ping.com/5f2e")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').alerts.healthchecks-url: healthchecksUrl must be an http:// "
                            + "or https:// URL, was 'hc-ping.com/5f2e'");
        }

        private static PeriodicJob job(Map<String, String> more) {
            return RetryAndCatchUp.job(more);
        }
    }

    @Nested
    class DeliveryOptionsOfAJob {

        @Test
        void optionsSetTheTasksDeliveryAndUnsetTheyAreNone() {
            PeriodicJob job = RetryAndCatchUp.job(Map.of("onebeat.jobs[0].options.expires", "90m",
                    "onebeat.jobs[0].options.priority", "7", "onebeat.jobs[0].options.routing-key", "reports.late",
                    "onebeat.jobs[0].options.headers.tenant", "acme"));

            assertThat(((DeclarativeJob) job).task().delivery()).isEqualTo(new DeliveryOptions(Duration.ofMinutes(90), 7,
                    null, "reports.late", Map.of("tenant", "acme")));
            assertThat(((DeclarativeJob) RetryAndCatchUp.job(Map.of())).task().delivery()).isSameAs(DeliveryOptions.NONE);
        }

        @Test
        void badOptionsAreRefusedNamingPathJobFieldAndValue() {
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].options.priority", "256")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').options.priority: must be 0 to 255, was 256");
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].options.expires", "0s")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').options.expires: must be positive, was PT0S");
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].options.expires", "soon")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'x').options.expires: ");
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].options.headers.eta", "now")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').options.headers.eta: the transport sets this header itself");
        }
    }

    @Nested
    class ArgumentsAsWritten {

        @Test
        void textFromEnvironmentOrCommandLineIsTypedAsItReads() {
            PeriodicJob job = RetryAndCatchUp.job(Map.of("onebeat.jobs[0].args[0]", "2", "onebeat.jobs[0].args[1]", "3",
                    "onebeat.jobs[0].args[2]", "\"7\"", "onebeat.jobs[0].args[3]", "[1, 2]",
                    "onebeat.jobs[0].kwargs.dry-run", "true", "onebeat.jobs[0].kwargs.region", "eu"));

            TaskRequest task = ((DeclarativeJob) job).task();
            assertThat(task.args()).containsExactly(2, 3, "7", List.of(1, 2));
            assertThat(task.kwargs()).isEqualTo(Map.of("dry-run", true, "region", "eu"));
        }

        @Test
        void environmentVariablesNameKwargsInLowerCaseAndTheirUnderscoresNest() {
            MutablePropertySources sources = new MutablePropertySources();
            sources.addFirst(new SystemEnvironmentPropertySource(
                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<>(Map.of(
                    "ONEBEAT_JOBS_0_NAME", "x", "ONEBEAT_JOBS_0_EVERY", "1h", "ONEBEAT_JOBS_0_TASK", "t",
                    "ONEBEAT_JOBS_0_KWARGS_COUNT", "3", "ONEBEAT_JOBS_0_KWARGS_MAX_TRIES", "5"))));

            PeriodicJob job = DeclarativeJobs.from(new Binder(ConfigurationPropertySources.from(sources))
                    .bindOrCreate("onebeat", JobsProperties.class).jobs()).get(0).job();

            // as docs/jobs-in-configuration.md says: a kwarg named with '_' or upper case needs YAML, the command line or the API
            assertThat(((DeclarativeJob) job).task().kwargs()).isEqualTo(Map.of("count", 3, "max", Map.of("tries", 5)));
            PeriodicJob bracketed = RetryAndCatchUp.job(Map.of("onebeat.jobs[0].kwargs.[max_tries]", "5",
                    "onebeat.jobs[0].kwargs.[Mode]", "fast"));
            assertThat(((DeclarativeJob) bracketed).task().kwargs()).isEqualTo(Map.of("max_tries", 5, "Mode", "fast"));
        }

        @Test
        void aNulCharacterInTheTaskQueueOrAnArgumentIsRefusedNamingIt() {
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].task", "reports\u0000build")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').task: holds a NUL character (\\u0000, at index 7), which "
                            + "PostgreSQL cannot store");
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].queue", "q\u0000")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'x').queue: holds a NUL character");
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].args[0]", "a\u0000b")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'x').args: args[0]: holds a NUL character");
        }
    }

    @Nested
    class BoundedArguments {

        @Test
        void argumentsOverTheBoundAreRefusedNamingTheLargerFieldAndTheSizes() {
            Map<String, String> properties = new LinkedHashMap<>(Map.of("onebeat.jobs[0].name", "x",
                    "onebeat.jobs[0].every", "1h", "onebeat.jobs[0].task", "t", "onebeat.jobs[0].args[0]", "small",
                    "onebeat.jobs[0].kwargs.blob", "b".repeat(2000)));

            assertThatThrownBy(() -> DeclarativeJobs.from(bind(properties).jobs(), 1024))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessage("onebeat.jobs[0] (job 'x').kwargs: args and kwargs take 2020 bytes (2.0 KiB) as JSON"
                            + " (args 9 bytes, kwargs 2011 bytes (2.0 KiB)), more than onebeat.fire.max-arguments-size"
                            + " allows (1024 bytes (1.0 KiB))");
            assertThat(DeclarativeJobs.from(bind(properties).jobs(), 4096)).hasSize(1);
        }

        @Test
        void theDefaultBoundIsOneMebibyteCountedInUtf8Bytes() {
            // 350,000 three-byte characters are 1,050,000 bytes: over 1 MiB although under a million characters
            Map<String, String> properties = Map.of("onebeat.jobs[0].name", "x", "onebeat.jobs[0].every", "1h",
                    "onebeat.jobs[0].task", "t", "onebeat.jobs[0].args[0]", "€".repeat(350_000));

            assertThatThrownBy(() -> jobs(properties))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'x').args: args and kwargs take 1050006 bytes (1.00 MiB) as JSON (args 1050004 bytes (1.00 MiB), kwargs 2 bytes)")
                    .hasMessageEndingWith("allows (1048576 bytes (1.00 MiB))");
        }

        @Test
        void anUnknownPlaceholderIsRefusedAtStartUpNamingTheArgument() {
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].args[0]", "{scheduled_on}")))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageStartingWith("onebeat.jobs[0] (job 'x').args[0]: '{scheduled_on}' is not a placeholder");
        }

        @Test
        void aTaskNameLongerThanTheOutboxColumnIsRefusedNamingIt() {
            assertThatThrownBy(() -> RetryAndCatchUp.job(Map.of("onebeat.jobs[0].task", "t".repeat(256))))
                    .isInstanceOf(JobDefinitionException.class)
                    .hasMessageContaining("task must have at most 255 characters, had 256");
        }
    }

    private static JobsProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("onebeat", JobsProperties.class);
    }

    /** The jobs of these properties, validated as start-up validates them, at a fixed time. */
    private static List<RegisteredJob> jobs(Map<String, String> properties) {
        List<RegisteredJob> jobs = DeclarativeJobs.from(bind(properties).jobs());
        jobs.forEach(job -> JobValidation.validate(job, Instant.parse("2026-12-05T12:00:00Z")));
        return jobs;
    }

    private static Schedule.Cron cron(JobsProperties properties) {
        return (Schedule.Cron) DeclarativeJobs.from(properties.jobs()).get(0).job().schedule();
    }
}
