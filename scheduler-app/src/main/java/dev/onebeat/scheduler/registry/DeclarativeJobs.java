package dev.onebeat.scheduler.registry;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
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
                : Schedules.field(where, "lock-at-most-for", () -> positive("lockAtMostFor",
                        DurationStyle.detectAndParse(d.lockAtMostFor())));
        RetryPolicy retry = retry(where, d.retry());
        Duration catchUp = d.catchUpWindow() == null ? PeriodicJob.DEFAULT_CATCH_UP_WINDOW
                : Schedules.field(where, "catch-up-window", () -> positive("catchUpWindow",
                        DurationStyle.detectAndParse(d.catchUpWindow())));
        return new DeclarativeJob(d.name(), schedule, misfire, lock, retry, catchUp, task);
    }

    /** @throws JobDefinitionException naming the retry field at fault and its value */
    static RetryPolicy retry(String where, JobsProperties.Retry retry) {
        if (retry == null) {
            return RetryPolicy.DEFAULT;
        }
        RetryPolicy policy = RetryPolicy.DEFAULT;
        if (retry.attempts() != null) {
            int attempts = retry.attempts();
            policy = Schedules.field(where, "retry.attempts", () -> RetryPolicy.DEFAULT.withAttempts(attempts));
        }
        if (retry.backoff() != null) {
            RetryPolicy base = policy;
            policy = Schedules.field(where, "retry.backoff", () -> base.withBackoff(DurationStyle.detectAndParse(retry.backoff())));
        }
        if (retry.maxBackoff() != null) {
            RetryPolicy base = policy;
            policy = Schedules.field(where, "retry.max-backoff", () -> new RetryPolicy(base.attempts(), base.backoff(),
                    DurationStyle.detectAndParse(retry.maxBackoff())));
        }
        return policy;
    }

    private static Duration positive(String field, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + duration);
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
