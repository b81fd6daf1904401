package dev.onebeat.scheduler.boot.database;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Gives every Hikari pool of the application {@link PoolEviction}, for the reasons {@link DatabaseProperties} leaves
 * on, unless the pool already has an {@code exceptionOverride} of the user's.
 *
 * <p>Installed as an instance ({@code HikariConfig.setExceptionOverride}) rather than by
 * {@code exceptionOverrideClassName}, because the verdict needs the pool (to evict its other connections) and the
 * meter registry; a bean post-processor reaches the pool once Boot has bound its properties and before its first
 * connection, while it may still be configured. It binds {@code onebeat.database.*} itself: a post-processor is made
 * before the properties beans.
 */
@Configuration(proxyBeanMethods = false)
class ConnectionConfiguration {

    static final String PREFIX = "onebeat.database";

    private static final Logger log = LoggerFactory.getLogger(ConnectionConfiguration.class);

    // static: a post-processor is made before other beans; the registry is looked up at the first eviction
    @Bean
    static BeanPostProcessor poolEvictionInstaller(Environment environment, ObjectProvider<MeterRegistry> registries) {
        DatabaseProperties properties = Binder.get(environment).bindOrCreate(PREFIX, DatabaseProperties.class);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource pool) {
                    install(pool, properties.evictionReasons(), registries);
                }
                return bean;
            }
        };
    }

    @Bean
    MeterBinder poolEvictionMeters() {
        // at zero from the start, so that a dashboard sees the series before the first failover
        return registry -> {
            for (PoolEviction.Reason reason : PoolEviction.Reason.values()) {
                counter(registry, reason);
            }
        };
    }

    /** Installs the eviction for {@code reasons} on {@code pool}, unless it has a verdict of its own. */
    static void install(HikariDataSource pool, Set<PoolEviction.Reason> reasons,
                        ObjectProvider<MeterRegistry> registries) {
        if (reasons.isEmpty()) {
            log.info("failed connections evict only themselves, as Hikari decides {}.evict-read-only=false "
                    + "{}.evict-on-lost-session=false pool={}", PREFIX, PREFIX, pool.getPoolName());
            return;
        }
        if (pool.getExceptionOverride() != null || pool.getExceptionOverrideClassName() != null) {
            log.info("pool has an exceptionOverride of its own, failed connections left to it pool={}",
                    pool.getPoolName());
            return;
        }
        pool.setExceptionOverride(new PoolEviction(pool::getPoolName, reasons, () -> softEvict(pool),
                reason -> registries.ifAvailable(registry -> counter(registry, reason).increment()), System::nanoTime));
    }

    private static void softEvict(HikariDataSource pool) {
        if (pool.getHikariPoolMXBean() != null) {
            pool.getHikariPoolMXBean().softEvictConnections();
        }
    }

    private static Counter counter(MeterRegistry registry, PoolEviction.Reason reason) {
        return Counter.builder(PoolEviction.METRIC)
                .description("Pooled connections evicted with every other connection of their pool, by reason: "
                        + "read-only (SQLState 25006) or session-lost (class 08, 57P01-57P03)")
                .tag("reason", reason.tag()).register(registry);
    }
}
