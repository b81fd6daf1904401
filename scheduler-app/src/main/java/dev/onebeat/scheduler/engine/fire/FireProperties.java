package dev.onebeat.scheduler.engine.fire;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the fire path ({@code onebeat.fire.*}). {@code onebeat.fire.max-arguments-size}, read by the registry
 * too, is bound by the outbox's {@link dev.onebeat.scheduler.engine.outbox.TaskArgumentsProperties}.
 *
 * @param batchSize tasks per outbox insert statement
 * @param lockPollInterval how often a fire retries a busy job lock while it waits for it
 * @param lockWaitMargin a fire waits for a busy job lock up to the job's lockAtMostFor plus this
 *     margin: long enough for a lock left by a dead replica to expire
 * @param threads fires of single jobs left by a batch (their lock was busy, their batch failed) running at once
 *     on this replica
 * @param batch how the fires of jobs due on the same instant share transactions
 * @param catchUpSpacing after an outage, the pause between two missed instants of one schedule that its
 *     {@code FIRE_ALL_MISSED} jobs fire, so that a backlog goes out at a bounded rate instead of all at once
 * @param share how the jobs of a large instant are divided among the live replicas
 * @param jobMeters jobs given the per-job counters {@code onebeat_fires_total}, {@code onebeat_tasks_dispatched_total}
 *     and {@code onebeat_tasks_duplicate_total} on each replica at most (the first it fires); the fires of the others
 *     count in the same counters under {@code job="(others)"} with their namespace, and a warning says so once; each
 *     replica fills its own, and keeps a job's until it restarts. Three
 *     series a job on every replica: 100,000 jobs held about 950,000 meter ids in a replica, and registering them took
 *     most of the first burst's CPU. The ledger, the API and the detector's events cover every job whatever the limit
 */
@Validated
@ConfigurationProperties("onebeat.fire")
public record FireProperties(
        @DefaultValue("1000") @Min(1) @Max(10_000) int batchSize,
        @DefaultValue("200ms") @NotNull Duration lockPollInterval,
        @DefaultValue("2s") @NotNull Duration lockWaitMargin,
        @DefaultValue("10") @Min(1) @Max(500) int threads,
        @DefaultValue @Valid @NotNull Batch batch,
        @DefaultValue("1s") @NotNull Duration catchUpSpacing,
        @DefaultValue @Valid @NotNull Share share,
        @DefaultValue("10000") @Min(0) @Max(10_000_000) int jobMeters) {

    /** Defaults, as the properties give them; for code that builds the fire path by hand. */
    public static final FireProperties DEFAULTS = new FireProperties(1000, Duration.ofMillis(200), Duration.ofSeconds(2),
            10, new Batch(200, 4, 1000), Duration.ofSeconds(1), new Share(0, 800, Duration.ofMillis(200),
            Duration.ofMinutes(1)), 10_000);

    /**
     * @param jobs fires of one instant sharing one transaction
     * @param threads transactions of such batches running at once on this replica
     * @param maxJobs fires sharing one transaction in an instant so large that each batch thread would run more than
     *     four batches of {@code jobs}: its batches grow, up to this many, so that each thread runs about four (the
     *     statements and round trips of a batch cost the same whatever its size; at 100,000 jobs on one instant, batches
     *     of 1,000 fired it in about half the time of batches of 200); never fewer than {@code jobs}
     */
    public record Batch(
            @DefaultValue("200") @Min(1) @Max(5_000) int jobs,
            @DefaultValue("4") @Min(1) @Max(64) int threads,
            @DefaultValue("1000") @Min(1) @Max(5_000) int maxJobs) {

        /** Batches per thread an instant is divided into before its batches grow past {@code jobs}. */
        static final int ROUNDS = 4;

        /**
         * @param fires the fires of one instant to be batched
         * @return the fires per transaction: {@code jobs}, or for a large instant more, up to {@code maxJobs}
         */
        public int sizeFor(int fires) {
            int even = (int) Math.min(Integer.MAX_VALUE, ((long) fires + (long) threads * ROUNDS - 1)
                    / ((long) threads * ROUNDS));
            return Math.max(jobs, Math.min(maxJobs, even));
        }
    }

    /**
     * An instant of one schedule with at least {@code minJobs} jobs to fire is divided into slices that every live
     * replica claims and fires ({@code onebeat_fire_slice}); a smaller one is fired by the replica that acquired its
     * trigger alone. Off by default: measured on one 2-core host, replicas that share its cores (and PostgreSQL's)
     * fire a large instant more slowly together than one alone; it is for replicas on hosts of their own.
     *
     * @param minJobs jobs an instant must have to be shared, such as 20000; 0 (the default) never shares
     * @param sliceJobs jobs per slice: the unit one replica claims and fires in batches; a multiple of
     *     {@code batch.jobs} times {@code batch.threads} keeps every batch thread busy
     * @param pollInterval how often a replica looks for slices no replica holds, its own instants' too
     * @param lease how long a replica that stalls (a long pause, a lost network) keeps the slice it claimed: the claim's
     *     transaction is kept alive every third of it while the slice fires, and the server ends the session past it;
     *     a replica whose process dies frees its slice at once
     */
    public record Share(
            @DefaultValue("0") @Min(0) int minJobs,
            @DefaultValue("800") @Min(1) @Max(100_000) int sliceJobs,
            @DefaultValue("200ms") @NotNull Duration pollInterval,
            @DefaultValue("1m") @NotNull Duration lease) {

        public Share {
            if (pollInterval != null && (pollInterval.isNegative() || pollInterval.isZero())) {
                throw new IllegalArgumentException("onebeat.fire.share.poll-interval: '" + pollInterval
                        + "' must be positive");
            }
            if (lease != null && (lease.compareTo(Duration.ofSeconds(1)) < 0 || lease.compareTo(Duration.ofDays(1)) > 0)) {
                throw new IllegalArgumentException("onebeat.fire.share.lease: '" + lease
                        + "' must be from 1s to 1d: the claim of a slice is kept alive every third of it while the slice"
                        + " fires, and a replica that stalls holds its slice that long");
            }
        }

        /** @return whether an instant of {@code jobs} jobs is divided among the replicas */
        public boolean shares(int jobs) {
            return minJobs > 0 && jobs >= minJobs && jobs > sliceJobs;
        }
    }
}
