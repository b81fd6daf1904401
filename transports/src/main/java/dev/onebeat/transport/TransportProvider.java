package dev.onebeat.transport;

import java.util.Set;

/**
 * Makes the {@link Transport} of a queue routed to it. Found with {@link java.util.ServiceLoader}
 * (see {@link TransportProviders}), so an implementation needs a public no-argument constructor; the
 * routing in {@code onebeat.relay.queues} picks one by {@link #name()}.
 */
public interface TransportProvider {

    /** @return the name a route gives in {@code transport:}, such as {@code celery} */
    String name();

    /** @return the broker types it can publish to, such as {@code rabbitmq} and {@code redis} */
    Set<BrokerType> brokerTypes();

    /**
     * Checks a route at start-up, before anything connects.
     *
     * @param route the queue's route, of one of {@link #brokerTypes()}
     * @throws IllegalArgumentException naming the option and value that is wrong
     */
    default void validate(QueueRoute route) {
    }

    /**
     * @param route the queue's route, already validated
     * @param context the broker connection, shared by the routes of one broker, and this node's name
     * @return a transport for that queue
     * @throws Exception when it cannot be set up; the relay logs it and tries again later
     */
    Transport create(QueueRoute route, TransportContext context) throws Exception;
}
