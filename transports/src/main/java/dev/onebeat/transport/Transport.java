package dev.onebeat.transport;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

    /**
     * How long {@link #publish} of that many tasks takes at most, for a transport that bounds its
     * exchanges (the {@code http} transport's route {@code timeout}). The relay keeps a publish's claim
     * only until then: a publish that outlives its deadline loses its claim one lease later, so another
     * relay retries its tasks, and health shows the publish as overdue.
     *
     * @param tasks the size of the batch
     * @return the bound, or empty (the default) when the transport sets none: the claim is then kept for
     *     a few claim leases
     */
    default Optional<Duration> deadline(int tasks) {
        return Optional.empty();
    }

    /** Releases what this transport alone holds; shared broker connections are closed by the relay. */
    @Override
    default void close() throws Exception {
    }
}
