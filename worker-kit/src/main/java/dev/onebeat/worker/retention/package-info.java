/**
 * Deletion of journal entries, finished tasks and finished effects older than a horizon, in
 * bounded batches, on demand or as a onebeat periodic job.
 */
package dev.onebeat.worker.retention;
