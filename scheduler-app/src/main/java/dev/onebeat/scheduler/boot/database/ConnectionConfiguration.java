package dev.onebeat.scheduler.boot.database;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Gives every Hikari pool of the application {@link ReadOnlyEviction}, unless {@value #EVICT_READ_ONLY} is
 * {@code false} or the pool already has an {@code exceptionOverride} of the user's.
 *
 * <p>Installed as an instance ({@code HikariConfig.setExceptionOverride}) rather than by
 * {@code exceptionOverrideClassName}, because the verdict needs the pool (to evict its other connections) and the
 * meter registry; a bean post-processor reaches the pool once Boot has bound its properties and before its first
 * connection, while it may still be configured.
 */
@Configuration(proxyBeanMethods = false)
class ConnectionConfiguration {

    /** Turns the eviction of connections answering read-only off ({@code true} by default). */
    static final String EVICT_READ_ONLY = "onebeat.database.evict-read-only";

    private static final Logger log = LoggerFactory.getLogger(ConnectionConfiguration.class);

    // static: a post-processor is made before other beans; the registry is looked up at the first eviction
    @Bean
    static BeanPostProcessor readOnlyEvictionInstaller(Environment environment,
                                                       ObjectProvider<MeterRegistry> registries) {
        boolean enabled = environment.getProperty(EVICT_READ_ONLY, Boolean.class, true);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource pool) {
                    install(pool, enabled, registries);
                }
                return bean;
            }
        };
    }

    @Bean
    MeterBinder readOnlyEvictionMeter() {
        // at zero from the start, so that a dashboard sees the series before the first failover
        return ConnectionConfiguration::counter;
    }

    private static void install(HikariDataSource pool, boolean enabled, ObjectProvider<MeterRegistry> registries) {
        if (!enabled) {
            log.info("connections answering read-only are not evicted {}=false pool={}", EVICT_READ_ONLY,
                    pool.getPoolName());
            return;
        }
        if (pool.getExceptionOverride() != null || pool.getExceptionOverrideClassName() != null) {
            log.info("pool has an exceptionOverride of its own, read-only connections left to it pool={}",
                    pool.getPoolName());
            return;
        }
        pool.setExceptionOverride(new ReadOnlyEviction(pool::getPoolName, () -> softEvict(pool),
                () -> registries.ifAvailable(registry -> counter(registry).increment()), System::nanoTime));
    }

    private static void softEvict(HikariDataSource pool) {
        if (pool.getHikariPoolMXBean() != null) {
            pool.getHikariPoolMXBean().softEvictConnections();
        }
    }

    private static Counter counter(MeterRegistry registry) {
        return Counter.builder(ReadOnlyEviction.METRIC)
                .description("Pooled connections evicted because the database answered read-only (SQLState 25006)")
                .tag("reason", "read-only").register(registry);
    }
}
