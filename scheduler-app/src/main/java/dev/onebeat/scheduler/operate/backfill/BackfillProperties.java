package dev.onebeat.scheduler.operate.backfill;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of backfills ({@code onebeat.backfill.*}).
 *
 * @param spacing the pause between two instants of one backfill: the bound on its rate (5 instants a second
 *     by default), so that a long range does not crowd out the schedules' own fires
 * @param poll how often each replica looks for backfills to work on
 */
@Validated
@ConfigurationProperties("onebeat.backfill")
public record BackfillProperties(@DefaultValue("200ms") @NotNull Duration spacing,
                                 @DefaultValue("2s") @NotNull Duration poll) {
}
