/**
 * Helpers shared by the providers of this module: an AMQP client ({@code internal.amqp}), a Redis client and
 * commands as values ({@code internal.redis}), and the pickle and Python-literal writers of the Python wire
 * formats ({@code internal.pickle}).
 *
 * <p><b>Not an API.</b> These types are public only because Java needs that for one package of this module
 * to use another's; they may change or go in any release. Code outside {@code transports} uses the SPI
 * ({@code dev.onebeat.transport}) and the provider classes, never these.
 */
package dev.onebeat.transport.internal;
