/**
 * Celery task protocol 2, over AMQP and over Redis (kombu's virtual transport), as workers of
 * Celery 5.2 to 5.6 consume it. See {@code shared/reference/wire-formats.md}, section 1.
 */
package dev.onebeat.transport.celery;
