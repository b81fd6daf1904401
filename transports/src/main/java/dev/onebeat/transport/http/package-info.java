/**
 * HTTP webhooks: each task a {@code POST} of its JSON with an {@code Idempotency-Key} header,
 * published on a 2xx.
 */
package dev.onebeat.transport.http;
