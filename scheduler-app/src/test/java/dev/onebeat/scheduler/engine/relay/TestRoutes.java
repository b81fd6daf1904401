package dev.onebeat.scheduler.engine.relay;

import org.springframework.test.context.DynamicPropertyRegistry;

/** Routes queues to a broker through {@code onebeat.relay.*} properties of a Spring test context. */
public final class TestRoutes {

    private TestRoutes() {
    }

    /**
     * @param registry the test's dynamic properties
     * @param broker the broker's name in configuration
     * @param type its type, such as {@code rabbitmq}
     * @param url its URL
     * @param transport the transport of every queue
     * @param queues the queues routed to it
     */
    public static void route(DynamicPropertyRegistry registry, String broker, String type, String url, String transport,
                             String... queues) {
        registry.add("onebeat.relay.brokers." + broker + ".type", () -> type);
        registry.add("onebeat.relay.brokers." + broker + ".url", () -> url);
        for (String queue : queues) {
            registry.add("onebeat.relay.queues." + queue + ".transport", () -> transport);
            registry.add("onebeat.relay.queues." + queue + ".broker", () -> broker);
        }
    }
}
