package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.CalendarPolicy;
import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.job.Durations;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.RetryPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.engine.outbox.JsonValues;
import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import dev.onebeat.scheduler.engine.outbox.TaskArguments;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Turns {@code onebeat.jobs[]} entries into jobs, reporting each problem with its path and job name. */
final class DeclarativeJobs {

    private DeclarativeJobs() {
    }

    static List<RegisteredJob> from(List<JobsProperties.Definition> definitions) {
        return from(definitions, TaskArguments.DEFAULT_MAX_BYTES);
    }

    /** @param maxArgumentBytes the most a job's args and kwargs may take as JSON ({@code onebeat.fire.max-arguments-size}) */
    static List<RegisteredJob> from(List<JobsProperties.Definition> definitions, long maxArgumentBytes) {
        List<RegisteredJob> jobs = new ArrayList<>(definitions.size());
        for (int i = 0; i < definitions.size(); i++) {
            jobs.add(new RegisteredJob(toJob("onebeat.jobs[" + i + "]", typed(definitions.get(i)), maxArgumentBytes),
                    "onebeat.jobs[" + i + "]"));
        }
        return jobs;
    }

    private static void storable(String where, String field, String text) {
        try {
            JsonValues.requireStorable(Schedules.path(where, field), text);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(e.getMessage(), e);
        }
    }

    /** A definition from configuration, its arguments typed as written ({@link ConfiguredArguments}). */
    private static JobsProperties.Definition typed(JobsProperties.Definition d) {
        return d.toBuilder().args(ConfiguredArguments.typed(d.args())).kwargs(ConfiguredArguments.typed(d.kwargs()))
                .build();
    }

    /**
     * @param path where the definition was written ({@code onebeat.jobs[2]}), empty for an API request body
     * @throws JobDefinitionException naming the path, job and field at fault
     */
    static PeriodicJob toJob(String path, JobsProperties.Definition d) {
        return toJob(path, d, TaskArguments.DEFAULT_MAX_BYTES);
    }

    /**
     * @param path where the definition was written ({@code onebeat.jobs[2]}), empty for an API request body
     * @param maxArgumentBytes the most its args and kwargs may take as JSON
     * @throws JobDefinitionException naming the path, job and field at fault
     */
    static PeriodicJob toJob(String path, JobsProperties.Definition d, long maxArgumentBytes) {
        String where = path.isEmpty() ? "" : path + " (job '" + d.name() + "')";
        if (d.name() == null || d.name().isBlank()) {
            throw new JobDefinitionException(Schedules.path(path, "name")
                    + ": is missing; every job needs a unique name");
        }
        if (d.task() == null || d.task().isBlank()) {
            throw new JobDefinitionException(Schedules.path(where, "task")
                    + ": is missing; a declarative job dispatches one task per fire");
        }
        storable(where, "task", d.task());
        if (d.queue() != null) {
            storable(where, "queue", d.queue());
        }
        if (OutboxTask.RESERVED_QUEUE.equals(d.queue())) {
            throw new JobDefinitionException(Schedules.path(where, "queue") + ": '" + d.queue()
                    + "' is onebeat's own (alert deliveries); use another queue");
        }
        List<Object> args = d.args() == null ? List.of() : d.args();
        Map<String, Object> kwargs = d.kwargs() == null ? Map.of() : d.kwargs();
        TaskRequest task = Schedules.field(where, "args", () -> {
            JsonValues.requireJson("args", args);
            JsonValues.requireJson("kwargs", kwargs);
            return TaskRequest.builder(d.task())
                    .queue(d.queue() == null ? TaskRequest.DEFAULT_QUEUE : d.queue())
                    .args(args)
                    .kwargs(kwargs)
                    .build();
        });
        try {
            TaskArguments.requireWithin(args, kwargs, maxArgumentBytes);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(Schedules.path(where, e.getMessage()), e);
        }
        DeliveryOptions delivery = delivery(where, d.options());
        // Jobs.periodic checks the name as it does for jobs written in code
        Schedule schedule = Schedules.field(where, "name", () -> Jobs.periodic(d.name(),
                Schedules.parse(where, d.cron(), d.every(), d.zone(), d.gap(), d.overlap())).execute(context -> { }).schedule());
        MisfirePolicy misfire = d.misfire() == null ? MisfirePolicy.FIRE_ONCE_NOW : misfire(where, d.misfire());
        Duration lock = d.lockAtMostFor() == null ? PeriodicJob.DEFAULT_LOCK_AT_MOST_FOR
                : Schedules.field(where, "lock-at-most-for", () -> positive("lockAtMostFor",
                        Durations.parse(d.lockAtMostFor())));
        RetryPolicy retry = retry(where, d.retry());
        Duration catchUp = d.catchUpWindow() == null ? PeriodicJob.DEFAULT_CATCH_UP_WINDOW
                : Schedules.field(where, "catch-up-window", () -> positive("catchUpWindow",
                        Durations.parse(d.catchUpWindow())));
        int maxCatchUp = d.maxCatchUp() == null ? PeriodicJob.DEFAULT_MAX_CATCH_UP
                : Schedules.field(where, "max-catch-up", () -> atLeastOne("maxCatchUp", d.maxCatchUp()));
        OverlapPolicy overlapPolicy = d.overlapPolicy() == null ? OverlapPolicy.BUFFER_ONE
                : overlapPolicy(where, d.overlapPolicy());
        AlertPolicy alerts = alerts(where, d.alerts());
        Duration jitter = d.jitter() == null ? Duration.ZERO
                : Schedules.field(where, "jitter", () -> notNegative("jitter", Durations.parse(d.jitter())));
        Duration spread = d.spread() == null ? Duration.ZERO
                : Schedules.field(where, "spread", () -> notNegative("spread", Durations.parse(d.spread())));
        CalendarPolicy calendars = calendars(where, d, schedule.zone());
        String namespace = d.namespace() == null ? PeriodicJob.DEFAULT_NAMESPACE : Schedules.field(where, "namespace",
                () -> Jobs.periodic(d.name(), schedule).namespace(d.namespace()).execute(context -> { }).namespace());
        ArgumentTemplates templates;
        try {
            templates = ArgumentTemplates.of(task.args(), task.kwargs(), schedule.zone());
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(Schedules.path(where, e.getMessage()), e);
        }
        return new DeclarativeJob(d.name(), schedule, misfire, lock, retry, catchUp, maxCatchUp, overlapPolicy, alerts,
                jitter, spread, calendars, new TaskRequest(task.task(), task.queue(), task.entity(), task.args(), task.kwargs(), task.notBefore(),
                        delivery), templates, namespace);
    }

    /** The job's delivery options; a problem names {@code options.<field>} and its value. */
    static DeliveryOptions delivery(String where, JobsProperties.Options options) {
        if (options == null) {
            return DeliveryOptions.NONE;
        }
        Duration expires = options.expires() == null ? null
                : Schedules.field(where, "options.expires", () -> Durations.parse(options.expires()));
        try {
            return new DeliveryOptions(expires, options.priority(), options.exchange(), options.routingKey(),
                    options.headers());
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(Schedules.path(where, "options." + e.getMessage()), e);
        }
    }

    /** @throws JobDefinitionException naming the alerts field at fault and its value */
    static AlertPolicy alerts(String where, JobsProperties.Alerts alerts) {
        if (alerts == null) {
            return AlertPolicy.DEFAULT;
        }
        AlertPolicy d = AlertPolicy.DEFAULT;
        Duration grace = alerts.grace() == null ? null : Schedules.field(where, "alerts.grace",
                () -> positive("grace", Durations.parse(alerts.grace())));
        int afterFailures = alerts.afterFailures() == null ? d.afterFailures() : alerts.afterFailures();
        int resolveAfter = alerts.resolveAfter() == null ? d.resolveAfter() : alerts.resolveAfter();
        Schedules.field(where, "alerts.after-failures", () -> d.withThresholds(afterFailures, d.resolveAfter()));
        Schedules.field(where, "alerts.resolve-after", () -> d.withThresholds(d.afterFailures(), resolveAfter));
        String healthchecks = blankToNull(alerts.healthchecksUrl());
        Schedules.field(where, "alerts.healthchecks-url", () -> d.withHealthchecks(healthchecks));
        String sentry = blankToNull(alerts.sentryMonitor());
        Schedules.field(where, "alerts.sentry-monitor", () -> d.withSentryMonitor(sentry));
        return new AlertPolicy(alerts.enabled() == null || alerts.enabled(), grace, afterFailures, resolveAfter,
                healthchecks, sentry);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.trim();
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
            policy = Schedules.field(where, "retry.backoff", () -> base.withBackoff(Durations.parse(retry.backoff())));
        }
        if (retry.maxBackoff() != null) {
            RetryPolicy base = policy;
            policy = Schedules.field(where, "retry.max-backoff", () -> new RetryPolicy(base.attempts(), base.backoff(),
                    Durations.parse(retry.maxBackoff())));
        }
        return policy;
    }

    private static Duration positive(String field, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + duration);
        }
        return duration;
    }

    /** @throws JobDefinitionException naming {@code calendars.*}, {@code active-from} or {@code active-until} */
    static CalendarPolicy calendars(String where, JobsProperties.Definition d, ZoneId zone) {
        JobsProperties.JobCalendars named = d.calendars();
        if (named == null && d.activeFrom() == null && d.activeUntil() == null) {
            return CalendarPolicy.NONE;
        }
        Instant from = d.activeFrom() == null ? null
                : Schedules.field(where, "active-from", () -> activeBound(d.activeFrom(), zone));
        Instant until = d.activeUntil() == null ? null
                : Schedules.field(where, "active-until", () -> activeBound(d.activeUntil(), zone));
        List<String> include = named == null || named.include() == null ? List.of() : named.include();
        List<String> exclude = named == null || named.exclude() == null ? List.of() : named.exclude();
        try {
            // each list checked alone, so the message names it: calendars.exclude[1]: …
            new CalendarPolicy(include, List.of(), null, null);
            new CalendarPolicy(List.of(), exclude, null, null);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(Schedules.path(where, "calendars." + e.getMessage()), e);
        }
        CalendarPolicy.Pick pick = named == null || named.pick() == null ? CalendarPolicy.Pick.ALL
                : constant(CalendarPolicy.Pick.class, named.pick()).orElseThrow(() -> new JobDefinitionException(
                        Schedules.path(where, "calendars.pick") + ": '" + named.pick() + "' is not one of "
                                + Arrays.stream(CalendarPolicy.Pick.values()).map(DeclarativeJobs::text).toList()));
        return Schedules.field(where, "active-until", () -> new CalendarPolicy(include, exclude, from, until, pick));
    }

    /** @return an instant as written, or the start of a day in the job's zone */
    private static Instant activeBound(String text, ZoneId zone) {
        String trimmed = text.trim();
        try {
            return trimmed.contains("T") ? Instant.parse(trimmed) : LocalDate.parse(trimmed).atStartOfDay(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not an instant (2027-01-01T08:00:00Z) or a day "
                    + "(2027-01-01)", e);
        }
    }

    private static Duration notNegative(String field, Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(field + " must not be negative, was " + duration);
        }
        return duration;
    }

    private static int atLeastOne(String field, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, was " + value);
        }
        return value;
    }

    /** @throws JobDefinitionException naming {@code overlap-policy} and the accepted values */
    static OverlapPolicy overlapPolicy(String where, String text) {
        return constant(OverlapPolicy.class, text).orElseThrow(() -> new JobDefinitionException(
                Schedules.path(where, "overlap-policy") + ": '" + text + "' is not one of "
                        + Arrays.stream(OverlapPolicy.values()).map(DeclarativeJobs::text).toList()));
    }

    /** @return a policy as configuration writes it: {@code buffer-one} */
    private static String text(Enum<?> policy) {
        return policy.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @throws JobDefinitionException naming {@code misfire} and the accepted values */
    static MisfirePolicy misfire(String where, String text) {
        return constant(MisfirePolicy.class, text).orElseThrow(() -> new JobDefinitionException(
                Schedules.path(where, "misfire") + ": '" + text + "' is not one of "
                        + Arrays.toString(MisfirePolicy.values())));
    }

    /** @return the constant written {@code text} in any case, with dashes for underscores ({@code fire-once-now}) */
    private static <E extends Enum<E>> Optional<E> constant(Class<E> type, String text) {
        String name = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        return Arrays.stream(type.getEnumConstants()).filter(constant -> constant.name().equals(name)).findFirst();
    }
}
