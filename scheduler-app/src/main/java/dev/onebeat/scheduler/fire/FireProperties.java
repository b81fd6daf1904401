package dev.onebeat.scheduler.fire;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the fire path ({@code onebeat.fire.*}).
 *
 * @param batchSize tasks per outbox insert statement
 * @param lockPollInterval how often a fire retries a busy job lock while it waits for it
 * @param lockWaitMargin a fire waits for a busy job lock up to the job's lockAtMostFor plus this
 *     margin: long enough for a lock left by a dead replica to expire
 */
@Validated
@ConfigurationProperties("onebeat.fire")
public record FireProperties(
        @DefaultValue("1000") @Min(1) @Max(10_000) int batchSize,
        @DefaultValue("200ms") @NotNull Duration lockPollInterval,
        @DefaultValue("2s") @NotNull Duration lockWaitMargin) {
}
