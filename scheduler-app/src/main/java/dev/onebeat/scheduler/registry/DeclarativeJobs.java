package dev.onebeat.scheduler.registry;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.outbox.JsonValues;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.convert.DurationStyle;

/** Turns {@code onebeat.jobs[]} entries into jobs, reporting each problem with its path and job name. */
final class DeclarativeJobs {

    private DeclarativeJobs() {
    }

    static List<RegisteredJob> from(List<JobsProperties.Definition> definitions) {
        List<RegisteredJob> jobs = new ArrayList<>(definitions.size());
        for (int i = 0; i < definitions.size(); i++) {
            jobs.add(new RegisteredJob(toJob("onebeat.jobs[" + i + "]", definitions.get(i)), "onebeat.jobs[" + i + "]"));
        }
        return jobs;
    }

    private static PeriodicJob toJob(String path, JobsProperties.Definition d) {
        String where = path + " (job '" + d.name() + "')";
        if (d.name() == null || d.name().isBlank()) {
            throw new JobDefinitionException(path + ".name: is missing; every job needs a unique name");
        }
        if (d.task() == null || d.task().isBlank()) {
            throw new JobDefinitionException(where + ".task: is missing; a declarative job dispatches one task per fire");
        }
        TaskRequest task = field(where, "args", () -> {
            JsonValues.requireJson("args", d.args());
            JsonValues.requireJson("kwargs", d.kwargs());
            return TaskRequest.builder(d.task())
                    .queue(d.queue() == null ? TaskRequest.DEFAULT_QUEUE : d.queue())
                    .args(d.args() == null ? List.of() : d.args())
                    .kwargs(d.kwargs() == null ? java.util.Map.of() : d.kwargs())
                    .build();
        });
        Jobs.Builder builder = field(where, "name", () -> Jobs.periodic(d.name(), schedule(where, d)));
        if (d.misfire() != null) {
            builder.misfirePolicy(field(where, "misfire",
                    () -> MisfirePolicy.valueOf(d.misfire().trim().toUpperCase(Locale.ROOT).replace('-', '_'))));
        }
        if (d.lockAtMostFor() != null) {
            builder.lockAtMostFor(field(where, "lock-at-most-for", () -> DurationStyle.detectAndParse(d.lockAtMostFor())));
        }
        return builder.execute(context -> context.dispatch(task));
    }

    private static Schedule schedule(String where, JobsProperties.Definition d) {
        boolean hasCron = d.cron() != null && !d.cron().isBlank();
        boolean hasEvery = d.every() != null && !d.every().isBlank();
        if (hasCron == hasEvery) {
            throw new JobDefinitionException(where + ": set exactly one of cron and every (cron='" + d.cron()
                    + "', every='" + d.every() + "')");
        }
        ZoneId zone = d.zone() == null ? Schedule.UTC : field(where, "zone", () -> zone(d.zone()));
        if (hasEvery) {
            Duration every = field(where, "every", () -> DurationStyle.detectAndParse(d.every().trim()));
            return field(where, "every", () -> Schedule.every(every).in(zone));
        }
        String cron = d.cron().trim();
        return field(where, "cron", () -> cron.split("\\s+").length == 5 || cron.startsWith("@")
                ? Schedule.unixCron(cron, zone)
                : Schedule.cron(cron, zone));
    }

    private static ZoneId zone(String id) {
        try {
            return ZoneId.of(id.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("'" + id + "' is not a known IANA time zone (e.g. Europe/Paris, UTC)");
        }
    }

    private static <T> T field(String where, String field, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (JobDefinitionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new JobDefinitionException(where + "." + field + ": " + e.getMessage(), e);
        }
    }
}
