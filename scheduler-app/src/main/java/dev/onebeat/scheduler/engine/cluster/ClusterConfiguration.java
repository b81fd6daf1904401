package dev.onebeat.scheduler.engine.cluster;

import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The clock every replica's logic reads, unless a test supplies its own. */
@Configuration(proxyBeanMethods = false)
class ClusterConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }
}
