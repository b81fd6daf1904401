package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.OutboundTask;

/**
 * A row this relay claimed.
 *
 * @param id the row id
 * @param attempts its attempt count after this claim; the fence of the marks that follow
 * @param reclaimed whether an earlier claim of it had expired: it may have been published before
 * @param task what to publish
 */
record ClaimedTask(long id, int attempts, boolean reclaimed, OutboundTask task) {
}
