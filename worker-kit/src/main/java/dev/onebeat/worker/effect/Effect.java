package dev.onebeat.worker.effect;

import dev.onebeat.worker.ColumnText;
import java.util.Objects;

/**
 * An external effect to deliver after the recording transaction commits.
 *
 * @param idempotencyKey identifies the effect across retries and redeliveries; derive it from the
 *                       task's key (for example {@code <task key>/email}), never from a random id,
 *                       or a redelivered task records a second effect
 * @param channel        selects the {@link EffectDelivery} that sends it, for example {@code email}
 * @param destination    where the delivery sends it; for HTTP, the URL
 * @param payload        what is sent, for HTTP the request body
 */
public record Effect(String idempotencyKey, String channel, String destination, String payload) {

    /** The width of {@code onebeat_effect.idempotency_key}, in Unicode code points (see {@link ColumnText}). */
    public static final int MAX_KEY_LENGTH = 320;

    /** The width of {@code onebeat_effect.channel}, in Unicode code points. */
    public static final int MAX_CHANNEL_LENGTH = 100;

    public Effect {
        requireText("idempotencyKey", idempotencyKey, MAX_KEY_LENGTH);
        requireText("channel", channel, MAX_CHANNEL_LENGTH);
        requireText("destination", destination, Integer.MAX_VALUE);
        Objects.requireNonNull(payload, "payload must not be null");
    }

    private static void requireText(String field, String value, int maxLength) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must not be blank, was null");
        }
        ColumnText.require(field, value, maxLength);
    }
}
