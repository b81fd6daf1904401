/**
 * The side-effect outbox, for what a transaction cannot roll back (e-mail, push, payment).
 *
 * <p>A handler writes the intent with {@link dev.onebeat.worker.effect.EffectOutbox#record} in its
 * own transaction, so a rolled-back handler leaves no effect behind and a committed one always has
 * it. An {@link dev.onebeat.worker.effect.EffectSender} delivers committed effects and marks them
 * sent only after the external call succeeded. A crash in between means the effect is delivered
 * again, with the same key: the receiving system must deduplicate on it, which is why
 * {@link dev.onebeat.worker.effect.HttpEffectDelivery} sends it as {@code Idempotency-Key}.
 */
package dev.onebeat.worker.effect;
