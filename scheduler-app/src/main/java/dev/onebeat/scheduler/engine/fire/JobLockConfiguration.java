package dev.onebeat.scheduler.engine.fire;

import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/** The ShedLock provider every fire uses, on the lock table {@link JobLockTable} owns. */
@Configuration(proxyBeanMethods = false)
class JobLockConfiguration {

    @Bean
    LockProvider lockProvider(DataSource dataSource) {
        return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(dataSource))
                .withTableName(JobLockTable.TABLE)
                // lock expiry is judged by the database's clock, so a replica with a skewed clock cannot steal a lock
                .usingDbTime()
                .build());
    }
}
