package dev.onebeat.scheduler.engine.cluster;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How a replica notices that the database server behind its pool changed (a standby promoted, a restart) and
 * recovers what such a change strands ({@code onebeat.failover.*}).
 *
 * @param checkInterval how often the server's incarnation is read: a change is noticed at most this long after the
 *     pool reaches the new server
 * @param strandedAfter how old one of this replica's own Quartz fire records must be, while no thread of this
 *     replica runs its fire, before the trigger it holds is given back to the cluster: longer than a fire takes from
 *     being marked fired to starting on a thread, even on a loaded machine
 * @param sweepInterval how often the stranded records are looked for besides after a change: a cheap indexed read,
 *     a safety net for changes that no reading of the incarnation saw (a restore, a pooler hiding the server); and
 *     the hand-backs of lost fires that a replica of an older version left in Quartz's ERROR state put back
 *     (another indexed read)
 * @param lookBack how far back, after a change, instants whose fire was lost with the old server are fired again:
 *     by default Quartz's misfire threshold, within which a late fire is still the schedule's own; each job's
 *     catch-up window and misfire policy narrow it
 */
@Validated
@ConfigurationProperties("onebeat.failover")
public record FailoverProperties(
        @DefaultValue("2s") @NotNull Duration checkInterval,
        @DefaultValue("10s") @NotNull Duration strandedAfter,
        @DefaultValue("5s") @NotNull Duration sweepInterval,
        @DefaultValue("60s") @NotNull Duration lookBack) {

    public FailoverProperties {
        requirePositive("checkInterval", checkInterval);
        requirePositive("sweepInterval", sweepInterval);
        if (strandedAfter != null && strandedAfter.isNegative()) {
            throw new IllegalArgumentException("onebeat.failover.stranded-after must not be negative, was "
                    + strandedAfter);
        }
        if (lookBack != null && lookBack.isNegative()) {
            throw new IllegalArgumentException("onebeat.failover.look-back must not be negative, was " + lookBack);
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value != null && (value.isZero() || value.isNegative())) {
            throw new IllegalArgumentException("onebeat.failover." + name + " must be positive, was " + value);
        }
    }
}
