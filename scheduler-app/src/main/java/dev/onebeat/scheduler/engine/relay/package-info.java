/**
 * The relay: publishes the outbox's tasks to their brokers after the fire that wrote them has committed. Each
 * replica runs loops that claim due tasks, hand them to a transport through the transports' SPI and record what
 * the broker answered (published, retried with backoff, or failed); {@link dev.onebeat.scheduler.engine.relay.Relay}
 * hears of each commit through the fire path's {@code FireListener}, so the fire path never knows the relay.
 */
package dev.onebeat.scheduler.engine.relay;
