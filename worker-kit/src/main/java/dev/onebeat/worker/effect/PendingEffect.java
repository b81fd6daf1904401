package dev.onebeat.worker.effect;

import java.util.Objects;

/**
 * An effect claimed by a sender for one delivery attempt.
 *
 * @param attempt 1 for the first delivery; a retry after a failure or after a sender crashed
 *                carries a higher number and the same {@code idempotencyKey}
 */
public record PendingEffect(long id, String idempotencyKey, String channel, String destination, String payload,
        int attempt) {

    public PendingEffect {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey must not be null");
        Objects.requireNonNull(channel, "channel must not be null");
        Objects.requireNonNull(destination, "destination must not be null");
        Objects.requireNonNull(payload, "payload must not be null");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
        }
    }
}
