/**
 * The in-database queue worker: consumes tasks from {@code onebeat_task} with
 * {@code FOR UPDATE SKIP LOCKED} batches, a heartbeat-renewed lease, retries with backoff and a
 * processed-key journal, so that each task's effect commits once.
 */
package dev.onebeat.worker.queue;
