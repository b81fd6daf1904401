package dev.onebeat.scheduler.boot.migration;

import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import dev.onebeat.scheduler.boot.startup.StartupProperties;
import javax.sql.DataSource;
import liquibase.integration.spring.SpringLiquibase;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Replaces Boot's Liquibase bean with {@link SerializedLiquibase}; Boot still orders database users after it. */
@Configuration(proxyBeanMethods = false)
class MigrationConfiguration {

    @Bean
    SpringLiquibase liquibase(DataSource dataSource, DatabaseStartup startup, StartupProperties properties,
                              @Value("${spring.liquibase.change-log:classpath:db/onebeat/changelog-master.xml}")
                              String changeLog) {
        SpringLiquibase liquibase = new SerializedLiquibase(startup, properties.skipAppliedChangelog());
        liquibase.setDataSource(dataSource);
        liquibase.setChangeLog(changeLog);
        return liquibase;
    }
}
