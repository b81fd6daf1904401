package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.OutboundTask;

/**
 * A row this relay claimed.
 *
 * @param id the row id
 * @param attempts its attempt count after this claim; the fence of the marks that follow
 * @param reclaimed whether an earlier claim of it had expired: it may have been published before
 * @param task what to publish; with no arguments when its payload is unreadable
 * @param unreadable why the row's payload could not be read, naming the task and the field; {@code null} when it
 *     was read. Such a row is refused without reaching a transport: no broker would take it either
 */
record ClaimedTask(long id, int attempts, boolean reclaimed, OutboundTask task, String unreadable) {
}
