/**
 * The transport SPI and what it carries: a {@link dev.onebeat.transport.TransportProvider} makes the
 * {@link dev.onebeat.transport.Transport} of a routed queue, which publishes
 * {@link dev.onebeat.transport.OutboundTask}s (their arguments and delivery options typed, as a
 * {@link dev.onebeat.transport.TaskPayload} read once from the outbox row) to a broker in the wire
 * format its workers consume and answers one {@link dev.onebeat.transport.Delivery} per task. The providers of this module are found
 * with {@link java.util.ServiceLoader} ({@link dev.onebeat.transport.TransportProviders}); a provider in
 * another jar registers itself the same way, in {@code META-INF/services/dev.onebeat.transport.TransportProvider}.
 *
 * <p>Plain Java: nothing here knows Spring, the outbox table or the relay that calls it. The relay
 * depends on this module, never the other way.
 */
package dev.onebeat.transport;
