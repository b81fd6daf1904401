package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.OutboundTask;

/**
 * A row this relay claimed.
 *
 * @param id the row id
 * @param attempts the number of this attempt (the attempts recorded before it, plus one), which its mark records;
 *     a retry's delay grows with it
 * @param reclaimed whether the relay of an earlier release had claimed it under a lease that ran out: it may have
 *     been published before
 * @param task what to publish; with no arguments when its payload is unreadable
 * @param unreadable why the row's payload could not be read, naming the task and the field; {@code null} when it
 *     was read. Such a row is refused without reaching a transport: no broker would take it either
 */
record ClaimedTask(long id, int attempts, boolean reclaimed, OutboundTask task, String unreadable) {
}
