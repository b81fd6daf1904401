package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.engine.relay.QueueRoutes;
import dev.onebeat.scheduler.engine.relay.RelayDriver;
import dev.onebeat.scheduler.engine.relay.RelayProperties;
import dev.onebeat.transport.TransportProvider;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * The onebeat side: relay nodes on the benchmark's outbox, each with its own node name and broker
 * connection and {@code concurrency} relay loops sharing it, all routing the one queue to one
 * transport ({@code celery} on RabbitMQ, or {@code kafka}). A drain runs every loop's rounds back to
 * back on its own thread, as the relay thread does while rows are due, until each claims nothing.
 */
final class RelayNodes implements AutoCloseable {

    static final String BROKER = "rabbit";

    /** The relay loops' poll interval; a drain never waits for it. */
    static final Duration POLL_INTERVAL = Duration.ofSeconds(1);

    private final List<RelayDriver> drivers;
    private final RelayStages stages;
    private final ExecutorService threads;

    private RelayNodes(List<RelayDriver> drivers, RelayStages stages) {
        this.drivers = drivers;
        this.stages = stages;
        this.threads = Executors.newFixedThreadPool(drivers.size(), runnable -> {
            Thread thread = new Thread(runnable, "relay-node");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** @return relay loops over all nodes, each on a thread of its own during a drain */
    int loops() {
        return drivers.size();
    }

    /** @param stages times the nodes' rounds */
    static RelayNodes open(DataSource dataSource, String queue, String amqpUrl, int nodes, int concurrency,
                           int batchSize, RelayStages stages) {
        return open(dataSource, properties(queue, amqpUrl, batchSize, POLL_INTERVAL), new CeleryTransportProvider(),
                nodes, concurrency, stages);
    }

    /**
     * @param properties the one route and its broker, as {@link #properties(String, String, String,
     *     RelayProperties.Broker, int, Duration)} makes them
     * @param transport the route's transport, its publish timed by {@code stages}
     */
    static RelayNodes open(DataSource dataSource, RelayProperties properties, TransportProvider transport, int nodes,
                           int concurrency, RelayStages stages) {
        QueueRoutes routes = QueueRoutes.of(properties, List.of(stages.timing(transport)), Map.of());
        List<RelayDriver> drivers = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            drivers.addAll(RelayDriver.loops(routes, dataSource, node(i), properties, stages.hook(), concurrency));
        }
        return new RelayNodes(drivers, stages);
    }

    /** The relay settings of the benchmark: {@code queue} routed to {@code celery} on RabbitMQ; defaults otherwise. */
    static RelayProperties properties(String queue, String amqpUrl, int batchSize, Duration pollInterval) {
        return properties(queue, "celery", BROKER, new RelayProperties.Broker("rabbitmq", amqpUrl, Map.of()),
                batchSize, pollInterval);
    }

    /**
     * @return {@code queue} routed to {@code transport} on the one broker {@code brokerName}, with no route option;
     *     defaults otherwise
     */
    static RelayProperties properties(String queue, String transport, String brokerName, RelayProperties.Broker broker,
                                      int batchSize, Duration pollInterval) {
        return new RelayProperties(true, batchSize, 1, pollInterval, Duration.ofSeconds(60), Duration.ofMillis(500),
                Duration.ofSeconds(15), Duration.ofSeconds(10), "database", onPublish(), Duration.ofSeconds(10),
                Map.of(brokerName, broker), Map.of(queue, new RelayProperties.Route(transport, brokerName, Map.of())));
    }

    /**
     * @return {@code onebeat.relay.on-publish} of the relay nodes: the system property {@code onebeat.bench.on-publish}
     *     ({@code JAVA_OPTS=-Donebeat.bench.on-publish=delete bench/relay-kafka.sh}), {@code mark} without it
     */
    static String onPublish() {
        return System.getProperty("onebeat.bench.on-publish", RelayProperties.MARK).trim();
    }

    /** @return whether the relay nodes delete the rows they published */
    static boolean deletes() {
        return RelayProperties.DELETE.equals(onPublish());
    }

    /** @return the name of node {@code index} */
    static String node(int index) {
        return "relay-bench-" + index;
    }

    /** @return the {@code origin} header node {@code index} writes, as the celery transport makes it */
    static String origin(int index) {
        return "onebeat@" + node(index);
    }

    /**
     * Runs every node until nothing due is left unclaimed.
     *
     * @return rows the nodes claimed, summed
     */
    int drain() throws Exception {
        List<Future<Integer>> done = new ArrayList<>();
        for (RelayDriver driver : drivers) {
            done.add(threads.submit(() -> {
                int claimed = 0;
                int round;
                while ((round = stages.relayOnce(driver)) > 0) {
                    claimed += round;
                }
                return claimed;
            }));
        }
        int claimed = 0;
        for (Future<Integer> future : done) {
            claimed += future.get();
        }
        return claimed;
    }

    @Override
    public void close() {
        threads.shutdownNow();
        drivers.forEach(RelayDriver::close);
    }
}
