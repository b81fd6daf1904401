package dev.onebeat.scheduler.boot.migration;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import dev.onebeat.scheduler.boot.startup.StartupProperties;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.core.io.DefaultResourceLoader;

@ExtendWith(PostgresExtension.class)
class SerializedLiquibaseIT {

    /**
     * A pool with a 1 s socket timeout and short server-side bounds, as application.yaml sets them (shorter): a
     * migration of 2 s completes, without the lock or idle bounds, and the session goes back to the pool with them.
     */
    @Test
    void migrationsRunFreeOfThePoolsTimeoutsAndTheSessionGetsThemBack(TestDatabase database) throws Exception {
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(database.jdbcUrl());
            pool.setUsername(database.username());
            pool.setPassword(database.password());
            pool.setMaximumPoolSize(1);
            pool.addDataSourceProperty("socketTimeout", "1");
            pool.addDataSourceProperty("options", "-c lock_timeout=3s -c idle_in_transaction_session_timeout=10s");
            SerializedLiquibase liquibase = new SerializedLiquibase(
                    new DatabaseStartup(StartupProperties.DEFAULTS), true);
            liquibase.setDataSource(pool);
            liquibase.setResourceLoader(new DefaultResourceLoader());
            liquibase.setChangeLog("classpath:db/test/slow-migration.sql");

            liquibase.afterPropertiesSet();

            try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
                try (ResultSet row = statement.executeQuery(
                        "SELECT lock_timeout, idle_in_transaction FROM migration_session")) {
                    row.next();
                    assertThat(row.getString(1)).as("lock_timeout during the migration").isEqualTo("0");
                    assertThat(row.getString(2)).as("idle_in_transaction_session_timeout during it").isEqualTo("0");
                }
                try (ResultSet row = statement.executeQuery("SELECT current_setting('lock_timeout'), "
                        + "current_setting('idle_in_transaction_session_timeout')")) {
                    row.next();
                    assertThat(row.getString(1)).as("lock_timeout after").isEqualTo("3s");
                    assertThat(row.getString(2)).as("idle_in_transaction_session_timeout after").isEqualTo("10s");
                }
                assertThat(connection.getNetworkTimeout()).as("socket timeout after").isEqualTo(1000);
            }
        }
    }
}
