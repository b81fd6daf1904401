package dev.onebeat.scheduler.operate.retention;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The built-in retention job ({@code onebeat.retention.*}). Ages count back from each fire's scheduled instant.
 *
 * @param enabled whether the job is registered
 * @param cron when it fires (Unix cron, UTC); every ten minutes by default, each fire deleting a bounded share
 * @param batchSize rows per delete statement
 * @param maxRowsPerFire rows one fire deletes at most, all tables together: they commit in the fire's one
 *     transaction; a larger backlog is worked off over the following fires
 * @param fires the ledger: fires of instants older than this go ...
 * @param keepLastFires ... but never a job's latest this many, so a monthly job keeps its history
 * @param attempts failed, skipped and duplicate attempts older than this go
 * @param events missed, failed and recovered events older than this go
 * @param audit audit entries older than this go
 * @param triggerRequests "trigger now" receipts older than this go (a request id re-sent later fires again)
 * @param publishedTasks outbox rows published (or done) longer ago than this go
 * @param failedTasks outbox rows failed (or discarded) longer ago than this go
 * @param throttles throttle rows run out longer ago than this go
 * @param backfills backfills ended (done or cancelled) longer ago than this go
 * @param deletedJobs the rows of jobs no longer in the catalog — their backfills, whatever their state, and the
 *     missed-fire detector's progress — untouched for longer than this go, and so do lock rows run out longer ago that
 *     no fire takes again (a deleted job's, one instant's under overlap policy allow, a backfill's). A job's ledger
 *     rows follow {@code fires} and its retention horizon stays, so a job created again under the name does not fire
 *     an instant of the old one twice
 */
@Validated
@ConfigurationProperties("onebeat.retention")
public record RetentionProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("*/10 * * * *") @NotNull String cron,
        @DefaultValue("1000") @Min(1) @Max(100_000) int batchSize,
        @DefaultValue("100000") @Min(1) long maxRowsPerFire,
        @DefaultValue("90d") @NotNull Duration fires,
        @DefaultValue("100") @Min(1) @Max(1_000_000) int keepLastFires,
        @DefaultValue("90d") @NotNull Duration attempts,
        @DefaultValue("90d") @NotNull Duration events,
        @DefaultValue("365d") @NotNull Duration audit,
        @DefaultValue("90d") @NotNull Duration triggerRequests,
        @DefaultValue("7d") @NotNull Duration publishedTasks,
        @DefaultValue("30d") @NotNull Duration failedTasks,
        @DefaultValue("1d") @NotNull Duration throttles,
        @DefaultValue("90d") @NotNull Duration backfills,
        @DefaultValue("1d") @NotNull Duration deletedJobs) {

    public RetentionProperties {
        positive("fires", fires);
        positive("attempts", attempts);
        positive("events", events);
        positive("audit", audit);
        positive("trigger-requests", triggerRequests);
        positive("published-tasks", publishedTasks);
        positive("failed-tasks", failedTasks);
        positive("throttles", throttles);
        positive("backfills", backfills);
        positive("deleted-jobs", deletedJobs);
    }

    private static void positive(String property, Duration age) {
        if (age != null && (age.isNegative() || age.isZero())) {
            throw new IllegalArgumentException("onebeat.retention." + property + ": must be positive, was " + age);
        }
    }
}
