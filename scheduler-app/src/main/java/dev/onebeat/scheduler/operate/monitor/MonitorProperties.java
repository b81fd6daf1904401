package dev.onebeat.scheduler.operate.monitor;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the missed-fire detector and of the instants the API shows ({@code onebeat.monitor.*}). Each job's
 * grace and alert thresholds are its own ({@link dev.onebeat.job.AlertPolicy}).
 *
 * @param enabled whether this replica takes part in the checks (one replica at a time runs each)
 * @param checkInterval how often the cluster's instants are judged: a miss is reported at most this long after the
 *     instant's grace ended, or up to 30 s later while a database fault is near and no written fault period
 *     explains the miss yet
 * @param lateAfter a committed fire whose attempt began more than this after its planned moment (its instant, plus
 *     the job's spread and jitter) is shown {@code late}
 * @param maxInstantsPerCheck instants of one job judged in one check at most; a longer backlog (a per-second job
 *     after a day of outage) is worked off over the following checks
 * @param maxEventsPerCheck missed events of one job written one by one in one check; the misses after them in that
 *     check become one event at the last of them, saying how many it stands for, so an outage does not send a
 *     thousand alerts for one job
 * @param sweepJobs jobs of the catalog each check judges in name order, going round, besides those that may have
 *     something to judge (their deadline has come, the ledger or the catalog has news of them since the last check);
 *     a catalog no larger is judged whole at every check. At a million jobs a check of every job took 4 to 7 s
 *     with nothing to judge; one of 20,000 plus what happened takes a fraction of a second
 * @param jobGauges jobs given the per-job gauges {@code onebeat_job_last_success_timestamp_seconds} and
 *     {@code onebeat_job_deadline_timestamp_seconds} on each replica at most (the first that progress shows); past it
 *     a warning says so once. Two series a job on every replica: a million jobs would hold gigabytes of meters and
 *     make every scrape huge. The detector's events, logs and alerts cover every job whatever the limit
 */
@Validated
@ConfigurationProperties("onebeat.monitor")
public record MonitorProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("15s") @NotNull Duration checkInterval,
        @DefaultValue("10s") @NotNull Duration lateAfter,
        @DefaultValue("1000") @Min(1) @Max(100_000) int maxInstantsPerCheck,
        @DefaultValue("10") @Min(1) @Max(10_000) int maxEventsPerCheck,
        @DefaultValue("20000") @Min(100) @Max(10_000_000) int sweepJobs,
        @DefaultValue("10000") @Min(0) @Max(10_000_000) int jobGauges) {

    /** Defaults, as the properties give them. */
    public static final MonitorProperties DEFAULTS = new MonitorProperties(true, Duration.ofSeconds(15),
            Duration.ofSeconds(10), 1000, 10, 20_000, 10_000);
}
