package dev.onebeat.transport;

import dev.onebeat.transport.OutboundTask;
import java.util.List;

/**
 * Publishes the committed tasks of one queue to its broker, in the wire format of the workers that
 * consume it. One instance serves one queue and is called by one relay thread at a time.
 *
 * <p>{@link #publish} returns only once the broker has taken responsibility for each task it calls
 * published (a publisher confirm, a Redis reply, a Kafka ack, a 2xx); the relay marks a row
 * published only then, so a crash in between republishes under the same key.
 */
public interface Transport extends AutoCloseable {

    /**
     * @param tasks due tasks of this transport's queue, oldest first, at least one
     * @return one outcome per task, in the same order
     * @throws Exception when the broker cannot be reached or answered nothing usable: every task is
     *     retried later with backoff, none is failed
     */
    List<Delivery> publish(List<OutboundTask> tasks) throws Exception;

    /** Releases what this transport alone holds; shared broker connections are closed by the relay. */
    @Override
    default void close() throws Exception {
    }
}
