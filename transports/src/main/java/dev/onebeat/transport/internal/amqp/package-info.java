/**
 * The RabbitMQ connection, publisher confirms and topology checks that the {@code amqp}, {@code celery} and
 * {@code dramatiq} providers publish through. Not an API: see {@link dev.onebeat.transport.internal}.
 */
package dev.onebeat.transport.internal.amqp;
