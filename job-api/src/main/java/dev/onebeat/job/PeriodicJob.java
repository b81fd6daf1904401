package dev.onebeat.job;

import java.time.Duration;

/**
 * A job that onebeat fires on a schedule, at most once per scheduled instant across all replicas.
 *
 * <p>Implement it directly (and expose it as a Spring bean, or list it in
 * {@code META-INF/services/dev.onebeat.job.PeriodicJob}), or build one with {@link Jobs#periodic}.
 *
 * <p>{@link #run} executes inside one database transaction together with the fire's ledger row and
 * every task it dispatches. If it throws, all of that rolls back: nothing is dispatched, no fire is
 * recorded, and the same scheduled instant may be fired again (by a recovery or a manual re-run)
 * with the same idempotency keys.
 */
public interface PeriodicJob {

    /** Default for {@link #lockAtMostFor()}: one minute. */
    Duration DEFAULT_LOCK_AT_MOST_FOR = Duration.ofMinutes(1);

    /** Default for {@link #catchUpWindow()}: one hour. */
    Duration DEFAULT_CATCH_UP_WINDOW = Duration.ofHours(1);

    /** Default for {@link #maxCatchUp()}: ten instants. */
    int DEFAULT_MAX_CATCH_UP = 10;

    /** Default for {@link #namespace()}: {@code default}, the namespace of every job that names none. */
    String DEFAULT_NAMESPACE = "default";

    /**
     * Unique, stable name of the job. It is part of every idempotency key the job produces, so
     * renaming a job makes its tasks look new to consumers.
     *
     * @return 1 to 150 UTF-16 code units (an emoji counts two), no control characters
     */
    String name();

    /** @return when the job fires */
    Schedule schedule();

    /**
     * The namespace the job belongs to: a team's or a service's share of the cluster. Roles are granted per
     * namespace, so a team's operators see and act on their namespace's jobs, tasks, audit and alerts and nobody
     * else's; a namespace can own queues and have limits. The name stays unique across the cluster.
     *
     * @return 1 to 63 lower-case letters, digits and inner hyphens (a DNS label); {@link #DEFAULT_NAMESPACE} unless
     *     overridden
     */
    default String namespace() {
        return DEFAULT_NAMESPACE;
    }

    /**
     * What to do with scheduled instants missed while no replica was up (or all were busy).
     *
     * @return {@link MisfirePolicy#FIRE_ONCE_NOW} unless overridden
     */
    default MisfirePolicy misfirePolicy() {
        return MisfirePolicy.FIRE_ONCE_NOW;
    }

    /**
     * How long a fire may hold the job's cluster-wide lock ({@code onebeat:<name>}) before the lock
     * is considered abandoned. Set it well above the job's longest normal run. If a replica dies in
     * the middle of a fire, the recovering replica waits for this lock to expire before it re-runs
     * the fire, so a shorter value also means a faster recovery. A fire that outlives its lock is
     * still recorded only once: the fire ledger, not the lock, is the final guard.
     *
     * @return a positive duration; {@link #DEFAULT_LOCK_AT_MOST_FOR} unless overridden
     */
    default Duration lockAtMostFor() {
        return DEFAULT_LOCK_AT_MOST_FOR;
    }

    /**
     * How a failed fire of one instant is tried again.
     *
     * @return {@link RetryPolicy#DEFAULT} (three attempts) unless overridden
     */
    default RetryPolicy retry() {
        return RetryPolicy.DEFAULT;
    }

    /**
     * How old an instant may be and still be fired: a retry that would start later than this after the
     * instant is not made, and the instant stays failed (it can still be re-run by hand).
     *
     * @return a positive duration; {@link #DEFAULT_CATCH_UP_WINDOW} unless overridden
     */
    default Duration catchUpWindow() {
        return DEFAULT_CATCH_UP_WINDOW;
    }

    /**
     * Under {@link MisfirePolicy#FIRE_ALL_MISSED}, how many missed instants are fired after an outage: the most
     * recent ones inside the {@linkplain #catchUpWindow() catch-up window}, oldest first, spaced apart
     * ({@code onebeat.fire.catch-up-spacing}). The older missed instants are recorded as skipped. Other
     * misfire policies fire at most one missed instant and ignore it.
     *
     * @return at least 1; {@link #DEFAULT_MAX_CATCH_UP} unless overridden
     */
    default int maxCatchUp() {
        return DEFAULT_MAX_CATCH_UP;
    }

    /**
     * What happens to an instant that falls due while the fire of an earlier instant of this job still runs.
     *
     * @return {@link OverlapPolicy#BUFFER_ONE} unless overridden
     */
    default OverlapPolicy overlapPolicy() {
        return OverlapPolicy.BUFFER_ONE;
    }

    /**
     * How far past each scheduled instant the fire may move: the job fires at its instant plus an offset in
     * {@code [0, jitter)}, a different one for each instant, derived from the job's name and the instant so that
     * every replica computes the same one. The instant itself, and so the idempotency keys, the ledger row and the
     * outcome, does not move: only the moment the fire begins does. Use it so that many jobs on one instant do not
     * reach their workers in the same second.
     *
     * @return zero (no jitter) or positive; shorter, with {@link #spread()}, than the schedule's shortest gap
     *     between two instants and than the catch-up window
     */
    default Duration jitter() {
        return Duration.ZERO;
    }

    /**
     * The window over which the members of this job's schedule are spread: the job fires at a fixed offset in
     * {@code [0, spread)} past each instant, the same at every instant, derived from the job's name alone. Jobs that
     * share a schedule share its spread (it is part of the schedule, as its zone is), so a spread of {@code 60s} on
     * 10,000 jobs at {@code 0 * * * *} lays their fires evenly over the hour's first minute, each job always in its
     * own second. Added to the {@linkplain #jitter() jitter} when both are set; the instant does not move.
     *
     * @return zero (no spread) or positive
     */
    default Duration spread() {
        return Duration.ZERO;
    }

    /**
     * Which instants of the schedule fire: calendars the job fires inside or not inside, and its active period. An
     * instant left out is recorded skipped, with the calendar named, and is not alerted on.
     *
     * @return {@link CalendarPolicy#NONE} (every instant fires) unless overridden
     */
    default CalendarPolicy calendars() {
        return CalendarPolicy.NONE;
    }

    /**
     * When an instant of this job counts as missed, and which of its events go to the alert channels and to its own
     * monitors (Healthchecks, Sentry Crons).
     *
     * @return {@link AlertPolicy#DEFAULT} unless overridden
     */
    default AlertPolicy alerts() {
        return AlertPolicy.DEFAULT;
    }

    /**
     * Does the work of one fire.
     *
     * @param context the scheduled instant, the transaction's connection, and task dispatch
     * @throws Exception any failure; it rolls back the whole fire
     */
    void run(JobContext context) throws Exception;
}
