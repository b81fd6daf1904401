/**
 * The task outbox: rows of {@code onebeat_task}, written in the transaction of the fire that
 * dispatched them, unique by idempotency key.
 */
package dev.onebeat.scheduler.engine.outbox;
