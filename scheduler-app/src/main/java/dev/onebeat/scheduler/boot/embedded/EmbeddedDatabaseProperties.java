package dev.onebeat.scheduler.boot.embedded;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The embedded PostgreSQL used when no datasource is configured ({@code onebeat.embedded.*}).
 *
 * @param dataDir where its data lives; kept across restarts
 * @param port TCP port it listens on (localhost), so psql or a second replica can connect
 */
@Validated
@ConfigurationProperties("onebeat.embedded")
public record EmbeddedDatabaseProperties(@DefaultValue("onebeat-data/postgres") @NotBlank String dataDir,
                                         @DefaultValue("54329") @Min(1) @Max(65535) int port) {
}
