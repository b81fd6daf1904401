package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.engine.trace.Traces;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The relay of one node built without Spring, for benchmarks outside this package: either one
 * {@link RelayLoop} that the caller drives round by round on its own thread, or a whole
 * {@link Relay} with its threads. The relay's constructors stay package-private; this is their
 * only door from test code elsewhere.
 */
public final class RelayDriver implements AutoCloseable {

    private final RelayNode node;
    private final RelayLoop loop;

    private RelayDriver(RelayNode node, RelayLoop loop) {
        this.node = node;
        this.loop = loop;
    }

    /**
     * @param routes the routing; every relayed queue is served by this one loop, so they must share a broker
     * @param node this node's name, unique per driver
     * @param hook called between each round's publish and marks
     * @return a loop that runs only when {@link #relayOnce()} is called; its broker connections open on
     *     first use and stay open until {@link #close()}
     */
    public static RelayDriver loop(QueueRoutes routes, DataSource dataSource, String node, RelayProperties properties,
                                   RelayHook hook) {
        return loops(routes, dataSource, node, properties, hook, 1).get(0);
    }

    /**
     * @param count loops of one node sharing its transports and broker connections, as
     *     {@code onebeat.relay.concurrency} makes them
     * @return the loops; closing any closes the connections of all
     * @see #loop
     */
    public static List<RelayDriver> loops(QueueRoutes routes, DataSource dataSource, String node,
                                          RelayProperties properties, RelayHook hook, int count) {
        List<String> brokers = routes.relayed().values().stream().map(route -> route.broker().name()).distinct().toList();
        if (brokers.size() != 1) {
            throw new IllegalArgumentException("routes must relay to exactly one broker, relayed to " + brokers);
        }
        RelayNode relayNode = new RelayNode(routes, dataSource, node, RelaySettings.of(properties),
                new RelayMetrics(new SimpleMeterRegistry()), hook, Clock.systemUTC());
        List<RelayDriver> drivers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            drivers.add(new RelayDriver(relayNode, relayNode.loop(brokers.get(0), List.copyOf(routes.relayed().keySet()))));
        }
        return drivers;
    }

    /**
     * @return a relay as the application makes it, not started: {@link Relay#start()} starts its loop threads
     *     and {@link Relay#wake()} wakes them, as a committed fire does
     */
    public static Relay relay(QueueRoutes routes, DataSource dataSource, String node, RelayProperties properties) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        return new Relay(routes, dataSource, node, properties, new RelayMetrics(registry),
                new OutboxGauges(new JdbcTemplate(dataSource), registry, properties.gaugeInterval()), RelayHook.NONE,
                Clock.systemUTC(), Traces.OFF);
    }

    /**
     * Claims, publishes and marks one batch, as each turn of the relay thread does.
     *
     * @return rows claimed; 0 once nothing due is left unclaimed
     */
    public int relayOnce() throws SQLException, InterruptedException {
        return loop.relayOnce().claimed();
    }

    /** Closes the broker connections this loop opened and ends its claims' renewals. */
    @Override
    public void close() {
        node.close();
    }
}
