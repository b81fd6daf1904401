package dev.onebeat.scheduler.registry;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.outbox.JsonValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    /**
     * @param path where the definition was written ({@code onebeat.jobs[2]}), empty for an API request body
     * @throws JobDefinitionException naming the path, job and field at fault
     */
    static PeriodicJob toJob(String path, JobsProperties.Definition d) {
        String where = path.isEmpty() ? "" : path + " (job '" + d.name() + "')";
        if (d.name() == null || d.name().isBlank()) {
            throw new JobDefinitionException(Schedules.path(path, "name")
                    + ": is missing; every job needs a unique name");
        }
        if (d.task() == null || d.task().isBlank()) {
            throw new JobDefinitionException(Schedules.path(where, "task")
                    + ": is missing; a declarative job dispatches one task per fire");
        }
        TaskRequest task = Schedules.field(where, "args", () -> {
            JsonValues.requireJson("args", d.args());
            JsonValues.requireJson("kwargs", d.kwargs());
            return TaskRequest.builder(d.task())
                    .queue(d.queue() == null ? TaskRequest.DEFAULT_QUEUE : d.queue())
                    .args(d.args() == null ? List.of() : d.args())
                    .kwargs(d.kwargs() == null ? Map.of() : d.kwargs())
                    .build();
        });
        // Jobs.periodic checks the name as it does for jobs written in code
        Schedule schedule = Schedules.field(where, "name", () -> Jobs.periodic(d.name(),
                Schedules.parse(where, d.cron(), d.every(), d.zone(), d.gap(), d.overlap())).execute(context -> { }).schedule());
        MisfirePolicy misfire = d.misfire() == null ? MisfirePolicy.FIRE_ONCE_NOW : misfire(where, d.misfire());
        Duration lock = d.lockAtMostFor() == null ? PeriodicJob.DEFAULT_LOCK_AT_MOST_FOR
                : Schedules.field(where, "lock-at-most-for", () -> positive(DurationStyle.detectAndParse(d.lockAtMostFor())));
        return new DeclarativeJob(d.name(), schedule, misfire, lock, task);
    }

    private static Duration positive(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("lockAtMostFor must be positive, was " + duration);
        }
        return duration;
    }

    /** @throws JobDefinitionException naming {@code misfire} and the accepted values */
    static MisfirePolicy misfire(String where, String text) {
        String constant = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (MisfirePolicy policy : MisfirePolicy.values()) {
            if (policy.name().equals(constant)) {
                return policy;
            }
        }
        throw new JobDefinitionException(Schedules.path(where, "misfire") + ": '" + text + "' is not one of "
                + Arrays.toString(MisfirePolicy.values()));
    }

}
