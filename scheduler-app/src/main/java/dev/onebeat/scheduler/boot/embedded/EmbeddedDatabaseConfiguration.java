package dev.onebeat.scheduler.boot.embedded;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/** Starts the embedded PostgreSQL and the connection pool on it, when no datasource URL is set. */
@Configuration(proxyBeanMethods = false)
@Conditional(NoDatasourceUrlCondition.class)
class EmbeddedDatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabaseConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(EmbeddedDatabaseProperties properties) {
        Path dataDir = Path.of(properties.dataDir()).toAbsolutePath();
        try {
            Files.createDirectories(dataDir);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPort(properties.port())
                    .start();
            log.info("embedded PostgreSQL started url=jdbc:postgresql://localhost:{}/postgres user=postgres dataDir={} "
                            + "(psql -h localhost -p {} -U postgres; other replicas: SPRING_DATASOURCE_URL=that url)",
                    properties.port(), dataDir, properties.port());
            return postgres;
        } catch (IllegalStateException e) {
            // zonky's words when no binaries jar on the class path matches the platform
            if (String.valueOf(e.getMessage()).contains("Missing embedded postgres binaries")) {
                throw new EmbeddedBinariesMissingException(e);
            }
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dataDir
                    + " on port " + properties.port() + " (onebeat.embedded.data-dir / onebeat.embedded.port)", e);
        }
    }

    @Bean(destroyMethod = "close")
    HikariDataSource dataSource(EmbeddedPostgres postgres) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        dataSource.setPoolName("onebeat-embedded");
        dataSource.setMaximumPoolSize(20);
        return dataSource;
    }
}
