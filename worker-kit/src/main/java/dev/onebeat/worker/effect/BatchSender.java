package dev.onebeat.worker.effect;

import dev.onebeat.worker.Backoff;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Claims one batch of due effects, delivers them one by one and records each outcome. */
final class BatchSender {

    private static final Logger log = LoggerFactory.getLogger(BatchSender.class);

    private final EffectStore store;
    private final Map<String, EffectDelivery> deliveries;
    private final int batchSize;
    private final int maxAttempts;
    private final Backoff backoff;
    private final WorkerMetrics metrics;
    private final String name;

    BatchSender(EffectStore store, Map<String, EffectDelivery> deliveries, int batchSize, int maxAttempts,
            Backoff backoff, WorkerMetrics metrics, String name) {
        this.store = store;
        this.deliveries = Map.copyOf(deliveries);
        this.batchSize = batchSize;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
        this.metrics = metrics;
        this.name = name;
    }

    /**
     * @param running checked before each effect; once false, the rest of the batch is handed back
     * @return how many effects were claimed
     */
    int sendDue(BooleanSupplier running) {
        List<PendingEffect> batch = store.claim(deliveries.keySet(), batchSize);
        for (int i = 0; i < batch.size(); i++) {
            if (!running.getAsBoolean()) {
                store.release(ids(batch.subList(i, batch.size())));
                break;
            }
            send(batch.get(i));
        }
        return batch.size();
    }

    private void send(PendingEffect effect) {
        if (effect.attempt() > maxAttempts) {
            // senders died (or lost their lease) during every attempt; stop feeding it to the next one
            dead(effect, "attempts exhausted by senders that did not finish, last attempt " + effect.attempt());
            return;
        }
        if (!store.renew(effect.id())) {
            log.warn("Lost the lease before delivery, sender={} effectId={} key={}", name, effect.id(),
                    effect.idempotencyKey());
            return;
        }
        try {
            deliveries.get(effect.channel()).deliver(effect);
        } catch (PermanentDeliveryException e) {
            dead(effect, describe(e));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed(effect, describe(e));
            return;
        } catch (Exception e) {
            failed(effect, describe(e));
            return;
        }
        sent(effect);
    }

    private void sent(PendingEffect effect) {
        if (store.markSent(effect.id())) {
            metrics.processed(name, effect.channel());
            log.debug("Effect sent, sender={} channel={} key={} attempt={}", name, effect.channel(),
                    effect.idempotencyKey(), effect.attempt());
        } else {
            // another sender took the effect over after our lease ran out; it delivers again with the same key
            log.warn("Effect delivered after its lease ran out, sender={} effectId={} key={}", name, effect.id(),
                    effect.idempotencyKey());
        }
    }

    private void failed(PendingEffect effect, String error) {
        if (effect.attempt() >= maxAttempts) {
            dead(effect, error);
            return;
        }
        var delay = backoff.delay(effect.attempt());
        if (store.reschedule(effect.id(), delay, error)) {
            metrics.retried(name, effect.channel());
            log.info("Effect delivery failed, will retry, sender={} channel={} key={} attempt={} retryIn={} error={}",
                    name, effect.channel(), effect.idempotencyKey(), effect.attempt(), delay, error);
        } else {
            log.warn("Effect delivery failed after its lease ran out, sender={} effectId={} key={} error={}", name,
                    effect.id(), effect.idempotencyKey(), error);
        }
    }

    private void dead(PendingEffect effect, String error) {
        if (store.markDead(effect.id(), error)) {
            metrics.dead(name, effect.channel());
            log.error("Effect is dead, sender={} channel={} key={} attempt={} error={}", name, effect.channel(),
                    effect.idempotencyKey(), effect.attempt(), error);
        }
    }

    private static String describe(Exception e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static List<Long> ids(List<PendingEffect> effects) {
        List<Long> ids = new ArrayList<>(effects.size());
        effects.forEach(effect -> ids.add(effect.id()));
        return ids;
    }
}
