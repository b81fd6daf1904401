/**
 * RabbitMQ: a connection per broker with a channel in confirm mode, and {@code transport: amqp}, which publishes
 * tasks as plain JSON messages; the Celery and Dramatiq transports publish their own formats over the same client.
 */
package dev.onebeat.transport.amqp;
