package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.engine.outbox.QueuePolicy;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TransportProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The validated routing: each configured queue with its transport and broker. Built once at
 * start-up; any problem stops start-up with a {@link RelayConfigurationException} naming the
 * property and value.
 */
public final class QueueRoutes implements QueuePolicy {

    private static final String PREFIX = "onebeat.relay.";

    private final Map<String, QueueRoute> routes;
    // looked up for every claimed task, so built once
    private final Map<String, QueueRoute> relayed;
    private final Map<String, TransportProvider> providers;
    private final boolean rejectUnrouted;

    private QueueRoutes(Map<String, QueueRoute> routes, Map<String, TransportProvider> providers, boolean rejectUnrouted) {
        this.routes = routes;
        Map<String, QueueRoute> relayedRoutes = new LinkedHashMap<>();
        routes.forEach((queue, route) -> {
            if (route.relayed()) {
                relayedRoutes.put(queue, route);
            }
        });
        this.relayed = Collections.unmodifiableMap(relayedRoutes);
        this.providers = providers;
        this.rejectUnrouted = rejectUnrouted;
    }

    /**
     * @param properties the relay settings
     * @param providers every transport on the class path
     * @param declaredQueues queues that declared jobs dispatch to, by job name; checked when
     *     unrouted queues are rejected
     * @return the routing
     * @throws RelayConfigurationException listing every problem
     */
    public static QueueRoutes of(RelayProperties properties, Collection<TransportProvider> providers,
                                 Map<String, String> declaredQueues) {
        List<String> problems = new ArrayList<>();
        Map<String, TransportProvider> byName = new LinkedHashMap<>();
        for (TransportProvider provider : providers) {
            TransportProvider previous = byName.putIfAbsent(provider.name(), provider);
            if (previous != null) {
                problems.add("two transports are named '" + provider.name() + "': " + previous.getClass().getName()
                        + " and " + provider.getClass().getName());
            }
        }
        String unrouted = properties.unrouted().trim();
        if (!unrouted.equals("database") && !unrouted.equals("reject")) {
            problems.add(PREFIX + "unrouted: unknown value '" + properties.unrouted() + "'; use database or reject");
        }
        String onPublish = properties.onPublish().trim();
        if (!onPublish.equals(RelayProperties.MARK) && !onPublish.equals(RelayProperties.DELETE)) {
            problems.add(PREFIX + "on-publish: unknown value '" + properties.onPublish() + "'; use "
                    + RelayProperties.MARK + " or " + RelayProperties.DELETE);
        }
        if (properties.claimLease().compareTo(Duration.ofSeconds(1)) < 0) {
            problems.add(PREFIX + "claim-lease: must be at least 1s (the database ends a claim's transaction idle "
                    + "longer than this, a publish's included), was " + properties.claimLease());
        }
        if (properties.retryMax().compareTo(properties.retryInitial()) < 0) {
            problems.add(PREFIX + "retry-max (" + properties.retryMax() + ") must be at least retry-initial ("
                    + properties.retryInitial() + ")");
        }
        Map<String, BrokerSettings> brokers = brokers(properties, problems);
        Map<String, QueueRoute> routes = new LinkedHashMap<>();
        properties.queues().forEach((queue, route) -> {
            QueueRoute built = route(queue, route, brokers, byName, problems);
            if (built != null) {
                routes.put(queue, built);
            }
        });
        if (unrouted.equals("reject")) {
            declaredQueues.forEach((job, queue) -> {
                if (!routes.containsKey(queue)) {
                    problems.add("job '" + job + "' dispatches to queue '" + queue + "', which " + PREFIX
                            + "queues does not route (" + PREFIX + "unrouted=reject); routed queues: " + new TreeSet<>(routes.keySet()));
                }
            });
        }
        if (!problems.isEmpty()) {
            throw new RelayConfigurationException(problems);
        }
        return new QueueRoutes(Map.copyOf(routes), Map.copyOf(byName), unrouted.equals("reject"));
    }

    private static Map<String, BrokerSettings> brokers(RelayProperties properties, List<String> problems) {
        Map<String, BrokerSettings> brokers = new LinkedHashMap<>();
        properties.brokers().forEach((name, broker) -> {
            String path = PREFIX + "brokers." + name;
            if (broker == null || broker.type() == null || broker.type().isBlank()) {
                problems.add(path + ".type is missing; use one of "
                        + List.of(BrokerType.values()).stream().map(BrokerType::configName).toList());
                return;
            }
            BrokerType type;
            try {
                type = BrokerType.parse(broker.type());
            } catch (IllegalArgumentException e) {
                problems.add(path + ".type: " + e.getMessage());
                return;
            }
            if (broker.url() == null || broker.url().isBlank()) {
                problems.add(path + ".url is missing for a " + type.configName() + " broker");
                return;
            }
            brokers.put(name, new BrokerSettings(name, type, broker.url().trim(), broker.properties()));
        });
        return brokers;
    }

    private static QueueRoute route(String queue, RelayProperties.Route route, Map<String, BrokerSettings> brokers,
                                    Map<String, TransportProvider> providers, List<String> problems) {
        String path = PREFIX + "queues." + queue;
        String transport = route == null || route.transport() == null ? "" : route.transport().trim();
        if (transport.isEmpty()) {
            problems.add(path + ".transport is missing; known transports: " + known(providers));
            return null;
        }
        if (transport.equals(QueueRoute.DATABASE)) {
            if (route.broker() != null && !route.broker().isBlank()) {
                problems.add(path + ".broker: the database transport takes no broker, was '" + route.broker() + "'");
                return null;
            }
            return new QueueRoute(queue, transport, null, route.options());
        }
        TransportProvider provider = providers.get(transport);
        if (provider == null) {
            problems.add(path + ".transport: unknown transport '" + transport + "'; known transports: " + known(providers));
            return null;
        }
        if (route.broker() == null || route.broker().isBlank()) {
            problems.add(path + ".broker is missing; transport " + transport + " needs a broker of type "
                    + types(provider));
            return null;
        }
        BrokerSettings broker = brokers.get(route.broker().trim());
        if (broker == null) {
            problems.add(path + ".broker: unknown broker '" + route.broker() + "'; configured brokers: "
                    + new TreeSet<>(brokers.keySet()));
            return null;
        }
        if (!provider.brokerTypes().contains(broker.type())) {
            problems.add(path + ": transport " + transport + " cannot publish to broker '" + broker.name() + "' of type "
                    + broker.type().configName() + "; it needs " + types(provider));
            return null;
        }
        QueueRoute built = new QueueRoute(queue, transport, broker, route.options());
        try {
            provider.validate(built);
        } catch (IllegalArgumentException e) {
            problems.add(path + ": " + e.getMessage());
            return null;
        }
        return built;
    }

    private static String known(Map<String, TransportProvider> providers) {
        TreeSet<String> names = new TreeSet<>(providers.keySet());
        names.add(QueueRoute.DATABASE);
        return names.toString();
    }

    private static String types(TransportProvider provider) {
        return provider.brokerTypes().stream().map(BrokerType::configName).sorted().collect(Collectors.joining(" or "));
    }

    /** @return the routes the relay publishes, by queue */
    public Map<String, QueueRoute> relayed() {
        return relayed;
    }

    /** @return every configured route, by queue */
    public Map<String, QueueRoute> all() {
        return routes;
    }

    /**
     * @param transport a transport name
     * @return its provider
     */
    TransportProvider provider(String transport) {
        return providers.get(transport);
    }

    @Override
    public void requireRouted(String queue) {
        if (rejectUnrouted && !routes.containsKey(queue)) {
            throw new IllegalArgumentException("queue '" + queue + "' is not routed in " + PREFIX + "queues ("
                    + PREFIX + "unrouted=reject); routed queues: " + new TreeSet<>(routes.keySet()));
        }
    }
}
