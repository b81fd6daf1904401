package dev.onebeat.scheduler.engine.outbox;

import java.time.Instant;

/**
 * An outbox task as the admin API shows it (its payload left out).
 *
 * @param id row id
 * @param idempotencyKey the key workers deduplicate on
 * @param job the job whose fire dispatched it
 * @param scheduledAt that fire's scheduled instant
 * @param task task name
 * @param queue queue it is routed to
 * @param status pending, claimed, published, done, failed or dead
 * @param attempts claims so far, by a relay or a queue worker; 0 again after an operator's retry
 * @param createdAt when the fire wrote it
 * @param availableAt when it may next be claimed
 * @param publishedAt when a transport confirmed it, if it did
 * @param lastError the last failure, or the reason it was discarded
 */
public record TaskView(long id, String idempotencyKey, String job, Instant scheduledAt, String task, String queue,
                       String status, int attempts, Instant createdAt, Instant availableAt, Instant publishedAt,
                       String lastError) {
}
