package dev.onebeat.scheduler.engine.relay;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.scheduler.engine.trace.Traces;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.amqp.AmqpJsonTransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A {@link Relay} as one replica runs it, without Spring: its own connection pool, its own broker
 * connections (through its own transports), its own threads and its own Prometheus registry.
 */
final class TestRelay implements AutoCloseable {

    /** The transports these tests route to. */
    static final List<TransportProvider> PROVIDERS = List.of(new AmqpJsonTransportProvider(), new CeleryTransportProvider());

    private final Relay relay;
    private final HikariDataSource pool;
    private final PrometheusMeterRegistry meters;

    private TestRelay(Relay relay, HikariDataSource pool, PrometheusMeterRegistry meters) {
        this.relay = relay;
        this.pool = pool;
        this.meters = meters;
    }

    /**
     * Starts a relay.
     *
     * @param database the migrated database
     * @param node its node name
     * @param properties its settings, see {@link #settings}
     * @param hook called between publish and marks
     */
    static TestRelay start(TestDatabase database, String node, RelayProperties properties, RelayHook hook) {
        return start(database, node, properties, hook, PROVIDERS);
    }

    /**
     * Starts a relay with transports of the test's own.
     *
     * @param providers the transports its routes may name
     * @see #start(TestDatabase, String, RelayProperties, RelayHook)
     */
    static TestRelay start(TestDatabase database, String node, RelayProperties properties, RelayHook hook,
                           List<TransportProvider> providers) {
        QueueRoutes routes = QueueRoutes.of(properties, providers, Map.of());
        HikariDataSource pool = OutboxTable.pool(database, node);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Relay relay = new Relay(routes, pool, node, properties, new RelayMetrics(meters),
                new OutboxGauges(new JdbcTemplate(pool), meters, properties.gaugeInterval()), hook, Clock.systemUTC(),
                Traces.OFF);
        relay.start();
        return new TestRelay(relay, pool, meters);
    }

    /**
     * Relay settings with one broker, fast polling and short retries.
     *
     * @param brokerType {@code rabbitmq} or {@code redis}
     * @param brokerUrl the broker
     * @param claimLease how long a claim holds
     * @param batchSize rows per round
     * @param routes the routes by queue, each to the broker {@code broker} (see {@link #route})
     */
    static RelayProperties settings(String brokerType, String brokerUrl, Duration claimLease, int batchSize,
                                    Map<String, RelayProperties.Route> routes) {
        return new RelayProperties(true, batchSize, 1, Duration.ofMillis(200), claimLease, Duration.ofMillis(200),
                Duration.ofSeconds(2), Duration.ofSeconds(5), "database", RelayProperties.MARK, Duration.ofMillis(200),
                Map.of("broker", new RelayProperties.Broker(brokerType, brokerUrl, Map.of())), routes);
    }

    /** @return a route to the broker of {@link #settings} with the given transport and options */
    static RelayProperties.Route route(String transport, Map<String, String> options) {
        return new RelayProperties.Route(transport, "broker", new LinkedHashMap<>(options));
    }

    /** @return the count of a relay counter for a queue, 0 if it was never incremented */
    double count(String name, String queue) {
        Counter counter = meters.find(name).tag("queue", queue).counter();
        return counter == null ? 0 : counter.count();
    }

    /** @return what {@code relay} in {@code /actuator/health} would show */
    Map<String, Object> health() {
        return new RelayHealth(relay).health().getDetails();
    }

    /** @return what the actuator's prometheus endpoint would answer */
    String scrape() {
        return meters.scrape();
    }

    /** Wakes the relay's loops, as a committed fire would: they look for due rows now. */
    void wake() {
        relay.wake();
    }

    @Override
    public void close() {
        relay.stop();
        pool.close();
    }
}
