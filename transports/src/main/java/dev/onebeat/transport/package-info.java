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
 *
 * <p>What is public, and so what code outside this module may use: this package (the SPI), each
 * provider's {@code *TransportProvider} class, and {@link dev.onebeat.transport.http.Webhooks} (the
 * {@code http} transport's sending, for a provider whose tasks make their own requests). Encoders, messages
 * and clients are package-private in their provider's package; what several providers share lives in
 * {@code dev.onebeat.transport.internal}, public only because Java needs it and not an API.
 */
package dev.onebeat.transport;
