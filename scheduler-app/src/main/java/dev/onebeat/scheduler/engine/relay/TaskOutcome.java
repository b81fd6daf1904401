package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.Delivery;

/**
 * A claimed task and what its publish came to: the one list a round's marks, counters and logs are
 * made from.
 *
 * @param task the row as claimed, with the number of this attempt
 * @param delivery the transport's outcome, or a retry when the transport threw
 */
record TaskOutcome(ClaimedTask task, Delivery delivery) {

    boolean is(Delivery.Status status) {
        return delivery.status() == status;
    }
}
