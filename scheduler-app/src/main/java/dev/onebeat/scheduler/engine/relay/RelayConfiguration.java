package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.engine.registry.JobsProperties;
import dev.onebeat.scheduler.engine.trace.Traces;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.TransportProviders;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The routing (validated at start-up, over the transports found with {@link TransportProviders} and
 * those the app declares as beans), the relay and the outbox gauges. The relay runs when
 * {@code onebeat.relay.enabled} (the default) and some queue is routed to a broker.
 */
@Configuration(proxyBeanMethods = false)
class RelayConfiguration {

    /**
     * @param beans the app's own providers (such as the alerts' transport), which need its settings
     */
    @Bean
    QueueRoutes queueRoutes(RelayProperties configured, List<TransportProvider> beans, JobsProperties jobs,
                            List<BuiltInRoutes> builtIn) {
        List<TransportProvider> providers = new ArrayList<>(TransportProviders.load());
        providers.addAll(beans);
        RelayProperties properties = withBuiltIn(configured, builtIn);
        Map<String, String> declared = new LinkedHashMap<>();
        for (JobsProperties.Definition definition : jobs.jobs()) {
            if (definition.name() != null && definition.queue() != null) {
                declared.put(definition.name(), definition.queue());
            }
        }
        return QueueRoutes.of(properties, providers, declared);
    }

    private static RelayProperties withBuiltIn(RelayProperties p, List<BuiltInRoutes> builtIn) {
        if (builtIn.isEmpty()) {
            return p;
        }
        Map<String, RelayProperties.Broker> brokers = new LinkedHashMap<>();
        Map<String, RelayProperties.Route> queues = new LinkedHashMap<>();
        builtIn.forEach(routes -> {
            brokers.putAll(routes.brokers());
            queues.putAll(routes.queues());
        });
        brokers.putAll(p.brokers());
        queues.putAll(p.queues());
        return new RelayProperties(p.enabled(), p.batchSize(), p.concurrency(), p.pollInterval(), p.claimLease(),
                p.retryInitial(), p.retryMax(), p.drainTimeout(), p.unrouted(), p.onPublish(), p.gaugeInterval(),
                brokers, queues);
    }

    @Bean
    RelayMetrics relayMetrics(MeterRegistry registry) {
        return new RelayMetrics(registry);
    }

    @Bean
    Relay relay(QueueRoutes routes, DataSource dataSource, RelayProperties properties, RelayMetrics metrics,
                JdbcTemplate jdbc, MeterRegistry registry, ObjectProvider<RelayHook> hook, Clock clock,
                Traces traces) {
        OutboxGauges gauges = new OutboxGauges(jdbc, registry, properties.gaugeInterval());
        Relay relay = new Relay(routes, dataSource, nodeName(), properties, metrics, gauges,
                hook.getIfAvailable(() -> RelayHook.NONE), clock, traces);
        Gauge.builder("onebeat.relay.publishing.overdue", relay,
                        r -> r.overdue().stream().mapToInt(RelayLoopHealth.Overdue::tasks).sum())
                .description("Claims held by this replica's publishes past their deadline (or claim lease)")
                .register(registry);
        return relay;
    }

    @Bean
    HealthIndicator relayHealthIndicator(Relay relay) {
        return new RelayHealth(relay);
    }

    /** {@code pid@host/xxxxxxxx}: unique per process, readable in the logs. */
    static String nodeName() {
        return ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
    }
}
