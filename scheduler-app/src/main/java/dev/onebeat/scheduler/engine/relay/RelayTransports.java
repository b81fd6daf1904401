package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.Transport;
import dev.onebeat.transport.TransportContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transports of the relayed queues, made on first use, and the broker clients they share. A
 * transport whose publish threw is discarded and made again on the next round, so a broken
 * connection is replaced.
 */
final class RelayTransports implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RelayTransports.class);

    private final QueueRoutes routes;
    private final String node;
    private final RelayMetrics metrics;
    private final Map<String, Transport> transports = new ConcurrentHashMap<>();
    private final Map<String, AutoCloseable> shared = new ConcurrentHashMap<>();

    RelayTransports(QueueRoutes routes, String node) {
        this(routes, node, null);
    }

    /** @param metrics where tasks published past their expiry are counted, or {@code null} for the log alone */
    RelayTransports(QueueRoutes routes, String node, RelayMetrics metrics) {
        this.routes = routes;
        this.node = node;
        this.metrics = metrics;
    }

    QueueRoute route(String queue) {
        QueueRoute route = routes.relayed().get(queue);
        if (route == null) {
            throw new IllegalStateException("queue '" + queue + "' is not relayed");
        }
        return route;
    }

    synchronized Transport transport(QueueRoute route) throws Exception {
        Transport transport = transports.get(route.queue());
        if (transport == null) {
            transport = routes.provider(route.transport()).create(route, new Context(route.broker()));
            transports.put(route.queue(), transport);
            log.info("relay transport ready: {} at {}", route.describe(), route.broker().safeUrl());
        }
        return transport;
    }

    /** Drops the queue's transport after a failure; the next round makes a new one. */
    synchronized void discard(QueueRoute route) {
        Transport transport = transports.remove(route.queue());
        if (transport != null) {
            closeQuietly(transport, route.describe());
        }
    }

    @Override
    public void close() {
        List<String> queues = new ArrayList<>(transports.keySet());
        for (String queue : queues) {
            Transport transport = transports.remove(queue);
            if (transport != null) {
                closeQuietly(transport, "queue '" + queue + "'");
            }
        }
        List<String> keys = new ArrayList<>(shared.keySet());
        for (String key : keys) {
            AutoCloseable client = shared.remove(key);
            if (client != null) {
                closeQuietly(client, key);
            }
        }
    }

    private static void closeQuietly(AutoCloseable closeable, String what) {
        try {
            closeable.close();
        } catch (Exception e) {
            log.debug("closing {} failed: {}", what, e.toString());
        }
    }

    private final class Context implements TransportContext {

        private final BrokerSettings broker;

        Context(BrokerSettings broker) {
            this.broker = broker;
        }

        @Override
        public String node() {
            return node;
        }

        @Override
        public <T extends AutoCloseable> T shared(Class<T> type, Supplier<T> opener) {
            String key = broker.name() + "/" + type.getName();
            return type.cast(shared.computeIfAbsent(key, k -> opener.get()));
        }

        @Override
        public void expired(OutboundTask task, Instant expiredAt) {
            QueueRoute route = route(task.queue());
            log.warn("relay published an expired task key={} {}: it expired at {} (scheduled {}), the worker will "
                    + "discard it", task.key().value(), route.describe(), expiredAt, task.scheduledAt());
            if (metrics != null) {
                metrics.expired(route);
            }
        }
    }
}
