package dev.onebeat.scheduler.engine.registry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Jobs declared in configuration ({@code onebeat.jobs[]}) and the folder of job jars.
 *
 * @param jobs declarative jobs, each the equivalent of one celery {@code beat_schedule} entry
 * @param jobsDir folder whose jars are searched for {@code PeriodicJob} service providers
 * @param runtimeJobsPoll how often each replica reloads the jobs stored through the admin API
 */
@ConfigurationProperties("onebeat")
public record JobsProperties(@DefaultValue List<Definition> jobs, @DefaultValue("jobs") String jobsDir,
                             @DefaultValue("5s") Duration runtimeJobsPoll) {

    /**
     * One declarative job: one task dispatched per fire. Fields are kept as text so that every
     * problem is reported by {@link DeclarativeJobs} with the job's name and the field. The same record is
     * the body of the admin API's job requests and the JSON stored for each runtime job
     * ({@code onebeat_runtime_job.definition}): its component names are a wire format, renamed never. Code
     * builds one with {@link #builder(String)} or {@link #toBuilder()}, naming each field it sets.
     *
     * @param name unique job name
     * @param cron 5 fields (Unix, as crontab and celery write it) or 6/7 fields (Quartz); or use {@code every}
     * @param every fixed interval such as {@code 10s} or {@code PT5M}; or use {@code cron}
     * @param zone IANA zone for {@code cron}, default UTC
     * @param task task name to dispatch
     * @param queue queue to dispatch to, default {@code default}
     * @param args positional arguments
     * @param kwargs keyword arguments
     * @param misfire FIRE_ONCE_NOW (default), FIRE_ALL_MISSED or SKIP_MISSED
     * @param lockAtMostFor the job lock's safety limit, default 1m
     * @param gap for {@code cron}: {@code shift} (default) fires a wall-clock time that a daylight-saving
     *     gap removes later by the gap's length, {@code skip} does not fire it; refused with {@code every}
     * @param overlap for {@code cron}: {@code first} (default), {@code last} or {@code both} occurrences
     *     of a wall-clock time that an overlap repeats fire; refused with {@code every}
     * @param retry how a failed fire is tried again, default 3 attempts 10 s apart, doubling, at most 5m
     * @param catchUpWindow how old an instant may be and still be fired (a retry included), default 1h
     * @param maxCatchUp under {@code fire-all-missed}, how many missed instants fire after an outage, default 10
     * @param overlapPolicy {@code skip}, {@code buffer-one} (default) or {@code allow}: what an instant due while
     *     the job's previous fire still runs does
     * @param alerts when an instant is missed and where its events go; unset fields keep their defaults
     * @param options how its task is delivered, over the queue route's options; unset fields keep the route's
     * @param jitter how far past each instant its fire may move, a different offset in {@code [0, jitter)} at each
     *     instant, the same on every replica (such as {@code 30s}); default none
     * @param spread the window over which the members of its schedule fire: each job at its own fixed offset in
     *     {@code [0, spread)} past every instant (such as {@code 1m}); part of the schedule, default none
     * @param calendars named calendars ({@code onebeat.calendars}) it fires inside only, or never inside
     * @param activeFrom the start of its active period: an instant ({@code 2027-01-01T08:00:00Z}) or a day, from its
     *     start in the job's zone ({@code 2027-01-01}); default none
     * @param activeUntil the end of its active period, excluded, written as {@code activeFrom}; default none
     * @param namespace the namespace it belongs to ({@code onebeat.namespaces}), default {@code default}
     */
    public record Definition(String name, String cron, String every, String zone, String task, String queue,
                             List<Object> args, Map<String, Object> kwargs, String misfire, String lockAtMostFor,
                             String gap, String overlap, Retry retry, String catchUpWindow,
                             Integer maxCatchUp, String overlapPolicy, Alerts alerts, Options options,
                             String jitter, String spread, JobCalendars calendars, String activeFrom,
                             String activeUntil, String namespace) {

        /** @return a builder of a definition with this name and nothing else set, for code that names what it sets */
        public static DefinitionBuilder builder(String name) {
            return new DefinitionBuilder().name(name);
        }

        /** @return a builder holding every field of this definition, to change a few */
        public DefinitionBuilder toBuilder() {
            return new DefinitionBuilder(this);
        }
    }

    /**
     * The calendars a declarative job fires inside or never inside ({@link dev.onebeat.job.CalendarPolicy}).
     *
     * @param include calendars it fires inside only; when several, inside any of them
     * @param exclude calendars it never fires inside
     * @param pick {@code all} (default), {@code first-in-month} or {@code last-in-month}: which of a month's instants
     *     that the calendars let through fire (every weekday, the holidays excluded, the last: the last business day)
     */
    public record JobCalendars(List<String> include, List<String> exclude, String pick) {
    }

    /**
     * A declarative job's {@link dev.onebeat.job.DeliveryOptions}, for the transports that have a place for them
     * (Celery's): each unset field keeps the queue route's option.
     *
     * @param expires how long after the scheduled instant the task is still worth running, such as {@code 1h}
     * @param priority 0 to 255
     * @param exchange the RabbitMQ exchange to publish to
     * @param routingKey the routing key to publish with
     * @param headers extra message headers
     */
    public record Options(String expires, Integer priority, String exchange, String routingKey,
                          Map<String, String> headers) {
    }

    /**
     * A declarative job's {@link dev.onebeat.job.AlertPolicy}; an unset field keeps its default.
     *
     * @param enabled {@code false} keeps the job's events from the alert channels (default true)
     * @param grace how long after an instant its fire may commit before it is missed (default: half the period,
     *     30 s to 5 min)
     * @param afterFailures instants in a row failed for good before the job is alerted on (default 1)
     * @param resolveAfter instants in a row committed before an alerted job is resolved (default 1)
     * @param healthchecksUrl a Healthchecks-style ping URL for the job
     * @param sentryMonitor the slug of the job's Sentry Crons monitor
     */
    public record Alerts(Boolean enabled, String grace, Integer afterFailures, Integer resolveAfter,
                         String healthchecksUrl, String sentryMonitor) {
    }

    /**
     * How a declarative job's failed fire is tried again ({@link dev.onebeat.job.RetryPolicy}); an unset
     * field keeps its default.
     *
     * @param attempts tries per instant, the first included, 1 to 100 (default 3)
     * @param backoff wait before the first retry, doubling for each later one (default 10s)
     * @param maxBackoff the longest wait between two tries (default 5m)
     */
    public record Retry(Integer attempts, String backoff, String maxBackoff) {
    }
}
