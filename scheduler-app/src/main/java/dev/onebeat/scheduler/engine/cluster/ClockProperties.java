package dev.onebeat.scheduler.engine.cluster;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How a replica holds its clock to the database's ({@code onebeat.cluster.*}).
 *
 * @param maxClockSkew beyond this difference between this replica's clock and the database's, either way, the
 *     replica stops firing (its Quartz scheduler goes to standby; the others fire) until the clock is back within it.
 *     Within it, a fire waits for the database's time before it begins, so an instant never fires early
 * @param clockCheckInterval how often the difference is measured
 */
@Validated
@ConfigurationProperties("onebeat.cluster")
public record ClockProperties(
        @DefaultValue("5s") @NotNull Duration maxClockSkew,
        @DefaultValue("5s") @NotNull Duration clockCheckInterval) {

    public static final ClockProperties DEFAULTS = new ClockProperties(Duration.ofSeconds(5), Duration.ofSeconds(5));

    public ClockProperties {
        if (maxClockSkew != null && maxClockSkew.isNegative()) {
            throw new IllegalArgumentException("onebeat.cluster.max-clock-skew: must not be negative, was " + maxClockSkew);
        }
        if (clockCheckInterval != null && (clockCheckInterval.isZero() || clockCheckInterval.isNegative())) {
            throw new IllegalArgumentException("onebeat.cluster.clock-check-interval: must be positive, was "
                    + clockCheckInterval);
        }
    }
}
