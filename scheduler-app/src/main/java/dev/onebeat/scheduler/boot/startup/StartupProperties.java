package dev.onebeat.scheduler.boot.startup;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Start-up settings ({@code onebeat.startup.*}).
 *
 * @param databaseTimeout how long each start-up step that needs the database (migrations, the registry's sync to the
 *     catalog and Quartz) keeps trying while the database cannot be reached, before the replica gives up and exits
 * @param skipAppliedChangelog whether a start on a database that records this same changelog as applied, with
 *     Liquibase's {@code databasechangelog} unchanged since, skips Liquibase (its start-up, validation and lock); false
 *     runs Liquibase at every start, as before
 */
@Validated
@ConfigurationProperties("onebeat.startup")
public record StartupProperties(@DefaultValue("2m") @NotNull Duration databaseTimeout,
                                @DefaultValue("true") boolean skipAppliedChangelog) {

    /** Defaults, as the properties give them. */
    public static final StartupProperties DEFAULTS = new StartupProperties(Duration.ofMinutes(2), true);

    public StartupProperties {
        if (databaseTimeout != null && (databaseTimeout.isNegative() || databaseTimeout.isZero())) {
            throw new IllegalArgumentException("onebeat.startup.database-timeout: must be positive, was "
                    + databaseTimeout);
        }
    }
}
