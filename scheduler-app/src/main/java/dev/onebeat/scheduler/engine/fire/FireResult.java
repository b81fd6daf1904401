package dev.onebeat.scheduler.engine.fire;

import java.time.Duration;
import java.time.Instant;

/**
 * What one call of {@link FirePath#fire} did.
 *
 * @param job the job name
 * @param scheduledAt the logical scheduled instant
 * @param outcome committed, duplicate or failed
 * @param dispatched tasks inserted into the outbox
 * @param duplicateTasks dispatches whose key already existed
 * @param duration time from taking the lock to commit or rollback
 * @param error the failure, or {@code null}
 */
public record FireResult(String job, Instant scheduledAt, FireOutcome outcome, int dispatched,
                         int duplicateTasks, Duration duration, Throwable error) {
}
