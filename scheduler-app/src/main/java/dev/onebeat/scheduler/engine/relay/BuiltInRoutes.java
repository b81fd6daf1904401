package dev.onebeat.scheduler.engine.relay;

import java.util.Map;

/**
 * Queues onebeat dispatches to itself (its alert deliveries), routed without configuration. They join
 * {@code onebeat.relay.brokers} and {@code onebeat.relay.queues} at start-up and are validated with them; a broker
 * or queue of the same name in the configuration is the configuration's.
 */
public interface BuiltInRoutes {

    /** @return brokers by name */
    Map<String, RelayProperties.Broker> brokers();

    /** @return routes by queue */
    Map<String, RelayProperties.Route> queues();
}
