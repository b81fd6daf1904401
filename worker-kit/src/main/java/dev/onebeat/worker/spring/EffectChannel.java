package dev.onebeat.worker.spring;

import dev.onebeat.worker.effect.EffectDelivery;
import java.util.Objects;

/**
 * A delivery for the auto-configured effect sender: declare one bean per channel.
 *
 * @param channel the channel effects are recorded under, such as {@code http}
 * @param delivery how effects of that channel reach the outside world
 */
public record EffectChannel(String channel, EffectDelivery delivery) {

    /** Rejects a blank channel or a missing delivery. */
    public EffectChannel {
        if (channel == null || channel.isBlank()) {
            throw new IllegalArgumentException("channel must not be blank, was '" + channel + "'");
        }
        Objects.requireNonNull(delivery, "delivery for channel '" + channel + "' must not be null");
    }
}
