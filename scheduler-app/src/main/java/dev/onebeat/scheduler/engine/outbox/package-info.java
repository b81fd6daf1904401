/**
 * The task outbox: rows of {@code onebeat_task}, written in the transaction of the fire that
 * dispatched them, unique by idempotency key. The table's statements are in {@code OutboxWriter} (the fire path's
 * insert), {@code TaskTable} (what operators, gauges, the console and retention read or change) and the relay's
 * {@code RelayRepository} (claims, renewals and fenced marks); nothing else writes SQL on it.
 */
package dev.onebeat.scheduler.engine.outbox;
