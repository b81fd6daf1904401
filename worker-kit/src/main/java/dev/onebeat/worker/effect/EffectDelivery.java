package dev.onebeat.worker.effect;

/**
 * Performs an effect against the outside world, for one channel.
 *
 * <p>Returning normally means the receiver accepted the effect; only then is it marked sent. A
 * delivery may run more than once for one key (a sender killed after the call but before marking
 * sent, a lease that ran out): pass {@link PendingEffect#idempotencyKey()} to the receiver so it can
 * deduplicate.
 */
@FunctionalInterface
public interface EffectDelivery {

    /**
     * @throws PermanentDeliveryException when retrying cannot help (a rejected request): the effect
     *                                    goes dead at once
     * @throws Exception                  any other failure: the effect is retried after a backoff,
     *                                    until its attempts run out
     */
    void deliver(PendingEffect effect) throws Exception;
}
