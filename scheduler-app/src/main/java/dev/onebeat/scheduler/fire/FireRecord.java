package dev.onebeat.scheduler.fire;

import java.time.Instant;

/**
 * A row of the fire ledger.
 *
 * @param job job name
 * @param scheduledAt logical scheduled instant
 * @param firedAt when the fire started, on the firing replica's clock
 * @param node Quartz instance id of the firing replica
 * @param trigger scheduled, misfire, recovery or manual
 * @param outcome always {@code committed}: failed fires leave no row
 * @param taskCount tasks inserted
 * @param duplicateTaskCount dispatches whose key already existed
 * @param durationMillis time from lock to commit
 */
public record FireRecord(String job, Instant scheduledAt, Instant firedAt, String node, String trigger,
                         String outcome, int taskCount, int duplicateTaskCount, long durationMillis) {
}
