package dev.onebeat.scheduler.operate.retention;

import dev.onebeat.job.PeriodicJob;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Registers the retention job, a job written in code like a user's, unless {@code onebeat.retention.enabled=false}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "onebeat.retention.enabled", matchIfMissing = true)
class RetentionConfiguration {

    @Bean
    PeriodicJob onebeatRetention(RetentionProperties properties, MeterRegistry meters, DataSource dataSource) {
        return new RetentionJob(properties, meters, dataSource);
    }
}
