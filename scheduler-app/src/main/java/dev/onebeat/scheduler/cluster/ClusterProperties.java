package dev.onebeat.scheduler.cluster;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How replicas tell each other they are alive ({@code onebeat.cluster.*}). Liveness is judged in database time,
 * from the heartbeats each replica writes in {@code onebeat_node}: a replica's clock plays no part.
 *
 * @param heartbeatInterval how often a replica marks itself seen and re-checks which jobs are orphaned
 * @param livenessTimeout a replica not seen for this long no longer counts as alive: the jobs only it registers are
 *     orphaned (and, not firing, reported missed); at least twice the heartbeat interval
 */
@Validated
@ConfigurationProperties("onebeat.cluster")
public record ClusterProperties(@DefaultValue("10s") @NotNull Duration heartbeatInterval,
                                @DefaultValue("60s") @NotNull Duration livenessTimeout) {

    /** Defaults, as the properties give them. */
    public static final ClusterProperties DEFAULTS = new ClusterProperties(Duration.ofSeconds(10), Duration.ofSeconds(60));

    /** Checks that the heartbeat is positive and fits at least twice in the liveness timeout. */
    public ClusterProperties {
        if (heartbeatInterval != null && (heartbeatInterval.isNegative() || heartbeatInterval.isZero())) {
            throw new IllegalArgumentException("onebeat.cluster.heartbeat-interval: must be positive, was "
                    + heartbeatInterval);
        }
        if (heartbeatInterval != null && livenessTimeout != null
                && livenessTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("onebeat.cluster.liveness-timeout: must be at least twice "
                    + "onebeat.cluster.heartbeat-interval (" + heartbeatInterval + "), was " + livenessTimeout);
        }
    }
}
