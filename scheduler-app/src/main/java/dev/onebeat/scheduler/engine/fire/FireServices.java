package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.cluster.DatabaseClock;
import dev.onebeat.scheduler.engine.outbox.OutboxWriter;
import dev.onebeat.scheduler.engine.outbox.TaskArgumentsProperties;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.engine.trace.Traces;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a fire needs besides its job's lock, shared by {@link FirePath} (one fire) and {@link BatchFire} (the fires
 * of one instant in one transaction), which take the lock each its own way.
 *
 * @param ledger claims and completes the fire's (job, instant) row
 * @param outbox writes the dispatched tasks
 * @param transactions the fire's transaction
 * @param dataSource its connection, which the job may use
 * @param json writes the tasks' arguments
 * @param reports what an ended fire tells: metrics, log, listeners
 * @param clock this replica's clock, for durations and the moment a fire runs
 * @param properties {@code onebeat.fire.*}
 * @param arguments the bound on a task's arguments
 * @param attempts records duplicate and skipped attempts
 * @param databaseClock the cluster's clock, before whose instant no fire begins
 * @param traces the fire's span and the trace its tasks carry
 * @param moments the waits for planned moments, which a stop ends
 */
@Component
record FireServices(FireLedger ledger, OutboxWriter outbox, TransactionTemplate transactions, DataSource dataSource,
                    JsonMapper json, FireReports reports, Clock clock, FireProperties properties,
                    TaskArgumentsProperties arguments, FireAttempts attempts, DatabaseClock databaseClock,
                    Traces traces, MomentWaits moments) {

    /**
     * @param job the job fired; its tasks' expiry counts from its planned moment when it has one
     * @param request the fire: its instant and run make the tasks' keys
     * @param connection the fire's connection, in its transaction
     * @param beforeFirstWrite told before the fire first touches the database
     * @return the context the job runs with
     */
    FireContext context(PeriodicJob job, FireRequest request, Connection connection, Runnable beforeFirstWrite) {
        // a fire an operator asked for counts its tasks' expiry from now, not from its instant; one moved by a jitter or
        // a spread from its planned moment, so that a task reaches its worker no more expired than an unmoved one
        Instant expiresFrom = request.expiresFromFire() ? clock.instant()
                : request.waitsForPlannedMoment() && FireMoments.moves(job)
                        ? FireMoments.plannedAt(job, request.scheduledAt()) : null;
        // the fire's span is current: its tasks continue its trace, on whichever replica publishes them
        return new FireContext(job.name(), request, expiresFrom, traces.current(), connection, outbox, json,
                properties.batchSize(), arguments.maxBytes(), beforeFirstWrite);
    }
}
