package dev.onebeat.scheduler.engine.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.JobContext;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.TaskRequest;
import java.sql.Connection;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code {scheduled_at}}, {@code {scheduled_date}} and their offsets in a declarative job's arguments, filled
 * from the fire's instant in the job's zone; the reference values are written out by hand.
 */
class ArgumentTemplatesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void theInstantAndItsDateInTheJobsZone() {
        ArgumentTemplates templates = ArgumentTemplates.of(List.of("{scheduled_at}", "{scheduled_date}", 7),
                Map.of("day", "{scheduled_date}"), ZoneId.of("Pacific/Auckland"));
        // 11:30 UTC on 2 December is 00:30 on 3 December in Auckland (UTC+13 in summer)
        Instant at = Instant.parse("2026-12-02T11:30:00Z");

        assertThat(templates.args(at)).containsExactly("2026-12-02T11:30:00Z", "2026-12-03", 7);
        assertThat(templates.kwargs(at)).isEqualTo(Map.of("day", "2026-12-03"));
    }

    @Test
    void offsetsInCalendarUnitsKeepTheWallClockAcrossADaylightSavingChange() {
        ArgumentTemplates templates = ArgumentTemplates.of(List.of("{scheduled_at-1d}", "{scheduled_at-24h}",
                "{scheduled_date-1d}", "{scheduled_date+1w}", "{scheduled_date-1M}", "{scheduled_date-1y}",
                "{scheduled_at+90s}", "{scheduled_at-30m}"), Map.of(), BERLIN);
        // 02:30 on 30 March 2026 in Berlin (CEST, UTC+2); the clocks went forward at 02:00 on the 29th
        Instant at = Instant.parse("2026-03-30T00:30:00Z");

        assertThat(templates.args(at)).containsExactly(
                "2026-03-29T01:30:00Z",   // 02:30 the day before is in the gap: moved by its length, 03:30 CEST
                "2026-03-29T00:30:00Z",   // 24 hours earlier
                "2026-03-29", "2026-04-06", "2026-02-28", "2025-03-30",
                "2026-03-30T00:31:30Z", "2026-03-30T00:00:00Z");
    }

    @Test
    void aCalendarDayAcrossTheChangeIsTwentyThreeHours() {
        ArgumentTemplates templates = ArgumentTemplates.of(List.of("{scheduled_at-1d}", "{scheduled_at-24h}"), Map.of(),
                BERLIN);
        // 12:00 CEST on 29 March 2026, the day the clocks went forward: the day before, 12:00 CET, is 23 h earlier
        Instant at = Instant.parse("2026-03-29T10:00:00Z");

        assertThat(templates.args(at)).containsExactly("2026-03-28T11:00:00Z", "2026-03-28T10:00:00Z");
    }

    @Test
    void placeholdersInsideTextNestedValuesAndEscapes() {
        ArgumentTemplates templates = ArgumentTemplates.of(
                List.of("report-{scheduled_date-1d}.csv", List.of(Map.of("from", "{scheduled_date-7d}")),
                        "{{scheduled_date}} stays", "{\"json\": {\"braces\": 1}}", "{other}"),
                Map.of("range", Map.of("to", "{scheduled_date}")), ZoneId.of("UTC"));
        Instant at = Instant.parse("2026-01-01T00:00:00Z");

        assertThat(templates.args(at)).containsExactly("report-2025-12-31.csv", List.of(Map.of("from", "2025-12-25")),
                "{scheduled_date} stays", "{\"json\": {\"braces\": 1}}", "{other}");
        assertThat(templates.kwargs(at)).isEqualTo(Map.of("range", Map.of("to", "2026-01-01")));
    }

    @Test
    void argumentsWithoutPlaceholdersHaveNoTemplates() {
        assertThat(ArgumentTemplates.of(List.of("a", 1, "{not_scheduled}", List.of()), Map.of("k", "v"), BERLIN))
                .isNull();
    }

    @Test
    void anUnknownPlaceholderIsRefusedNamingTheArgument() {
        assertThatThrownBy(() -> ArgumentTemplates.of(List.of("ok", List.of("{scheduled_day}")), Map.of(), BERLIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("args[1][0]: '{scheduled_day}' is not a placeholder onebeat knows; use "
                        + "{scheduled_at} or {scheduled_date}");
        assertThatThrownBy(() -> ArgumentTemplates.of(List.of(), Map.of("day", "{scheduled_date-1q}"), BERLIN))
                .hasMessageStartingWith("kwargs.day: '{scheduled_date-1q}' is not a placeholder");
    }

    @Test
    void aConfiguredJobSendsTheSameArgumentsAndKeyForTheSameInstantWhateverFiresIt() throws Exception {
        PeriodicJob job = DeclarativeJobs.from(new Binder(new MapConfigurationPropertySource(Map.of(
                "onebeat.jobs[0].name", "daily-report", "onebeat.jobs[0].cron", "0 1 * * *",
                "onebeat.jobs[0].zone", "America/New_York", "onebeat.jobs[0].task", "reports.daily",
                "onebeat.jobs[0].args[0]", "{scheduled_date-1d}", "onebeat.jobs[0].kwargs.at", "{scheduled_at}")))
                .bindOrCreate("onebeat", JobsProperties.class).jobs()).get(0).job();
        Instant at = Instant.parse("2026-11-02T06:00:00Z"); // 01:00 EST on 2 November

        Recorded scheduled = Recorded.run(job, at);
        Recorded rerun = Recorded.run(job, at);

        assertThat(scheduled.tasks.get(0).args()).containsExactly("2026-11-01");
        assertThat(scheduled.tasks.get(0).kwargs()).isEqualTo(Map.of("at", "2026-11-02T06:00:00Z"));
        assertThat(rerun.tasks).isEqualTo(scheduled.tasks);
        assertThat(rerun.keys).isEqualTo(scheduled.keys).containsExactly("daily-report/2026-11-02T06:00:00Z/reports.daily");
    }

    /** The tasks one run of a job dispatched, and their keys, as the fire path computes them. */
    private record Recorded(List<TaskRequest> tasks, List<String> keys) {

        static Recorded run(PeriodicJob job, Instant at) throws Exception {
            Recorded recorded = new Recorded(new ArrayList<>(), new ArrayList<>());
            job.run(new JobContext() {
                @Override
                public String jobName() {
                    return job.name();
                }

                @Override
                public Instant scheduledAt() {
                    return at;
                }

                @Override
                public Connection connection() {
                    throw new UnsupportedOperationException("a declarative job needs no connection");
                }

                @Override
                public IdempotencyKey dispatch(TaskRequest task) {
                    IdempotencyKey key = keyFor(task.task(), task.entity());
                    recorded.tasks.add(task);
                    recorded.keys.add(key.value());
                    return key;
                }

                @Override
                public IdempotencyKey keyFor(String task, Entity entity) {
                    return IdempotencyKey.of(job.name(), at, null, task, entity);
                }
            });
            return recorded;
        }
    }
}
