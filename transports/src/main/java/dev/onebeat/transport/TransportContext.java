package dev.onebeat.transport;

import java.time.Instant;
import java.util.function.Supplier;

/**
 * What a {@link TransportProvider} gets besides the route.
 */
public interface TransportContext {

    /** @return this replica's relay node name, for headers such as Celery's {@code origin} */
    String node();

    /**
     * One client per broker connection, shared by the routes of that broker and closed by the relay
     * when it stops. The first call for a broker opens it; later calls return the same object.
     *
     * @param type the client class, such as an AMQP connection holder
     * @param opener opens it; called at most once per broker while it stays open
     * @return the shared client
     */
    <T extends AutoCloseable> T shared(Class<T> type, Supplier<T> opener);

    /**
     * Told of a task published after its expiry: the worker will discard it instead of running it (a
     * backlog sent late after an outage). The relay logs and counts it; the default ignores it.
     *
     * @param task the task
     * @param expiredAt when it expired
     */
    default void expired(OutboundTask task, Instant expiredAt) {
    }
}
