package dev.onebeat.scheduler.operate.alert;

import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import dev.onebeat.scheduler.engine.relay.BuiltInRoutes;
import dev.onebeat.scheduler.engine.relay.RelayProperties;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Routes the alert deliveries' queue {@value #QUEUE} to the {@value AlertTransportProvider#NAME} transport. Its
 * broker {@value #BROKER} is an http one in name only: each delivery carries its own address.
 */
@Component
class AlertRoutes implements BuiltInRoutes {

    static final String QUEUE = OutboxTask.RESERVED_QUEUE;
    static final String BROKER = "onebeat-alerts";
    /** Never asked: the reserved top-level domain {@code .invalid} resolves nowhere. */
    private static final String NO_ADDRESS = "http://onebeat-alerts.invalid/";

    private final AlertProperties properties;

    AlertRoutes(AlertProperties properties) {
        this.properties = properties;
    }

    @Override
    public Map<String, RelayProperties.Broker> brokers() {
        return properties.enabled() ? Map.of(BROKER, new RelayProperties.Broker("http", NO_ADDRESS, Map.of())) : Map.of();
    }

    @Override
    public Map<String, RelayProperties.Route> queues() {
        return properties.enabled() ? Map.of(QUEUE, new RelayProperties.Route(AlertTransportProvider.NAME, BROKER, Map.of()))
                : Map.of();
    }
}
