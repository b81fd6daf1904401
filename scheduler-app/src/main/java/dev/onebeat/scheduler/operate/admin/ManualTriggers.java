package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.scheduler.boot.database.BatchDelete;
import dev.onebeat.scheduler.engine.quartz.QuartzTriggers;
import dev.onebeat.scheduler.engine.quartz.QuartzWork;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import org.quartz.Scheduler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * "Trigger now", once per request id. The first request for an id stores the request, a one-shot
 * Quartz trigger and the audit row in one transaction; the trigger then fires the job through the
 * fire path like any other fire (job lock, ledger row with trigger {@code manual}, outbox), for the
 * instant the request was accepted at. A repeated request — a double click, a client retry, even two
 * at once — finds the stored request and fires nothing new.
 */
@Component
public class ManualTriggers {

    private final JdbcClient jdbc;
    private final JobCatalog catalog;
    private final Scheduler scheduler;
    private final JobRegistry registry;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;

    ManualTriggers(JdbcClient jdbc, JobCatalog catalog, Scheduler scheduler, JobRegistry registry, AuditLog audit,
                   TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.catalog = catalog;
        this.scheduler = scheduler;
        this.registry = registry;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * @param job the job triggered
     * @param scheduledAt the instant the manual fire stands for (its keys derive from it)
     * @param requestId the client's request id
     */
    public record Receipt(String job, Instant scheduledAt, String requestId) {
    }

    /**
     * @return the receipt of the first request with this id, whether this call is that request or a repeat
     * @throws UnknownJobException if no such job is stored
     * @throws AdminConflictException if the id was used for another job, or this replica does not register the job
     */
    public Receipt trigger(String job, String requestId) {
        return QuartzWork.inTransaction(transactions, () -> {
            if (catalog.find(job).isEmpty()) {
                throw new UnknownJobException(job);
            }
            if (registry.find(job).isEmpty()) {
                throw new AdminConflictException("job '" + job + "' is not registered on this replica; it cannot be "
                        + "triggered until a replica that defines it runs");
            }
            Instant scheduledAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            // the primary key on request_id makes a repeat wait for the first request's commit, then insert nothing
            int inserted = jdbc.sql("""
                            INSERT INTO onebeat_trigger_request (request_id, job_name, scheduled_at, requested_by)
                            VALUES (?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING
                            """)
                    .params(requestId, job, Timestamp.from(scheduledAt), Actor.current())
                    .update();
            if (inserted == 0) {
                return earlier(job, requestId);
            }
            scheduler.scheduleJob(QuartzTriggers.manual(job, requestId, scheduledAt));
            audit.record("job.trigger", "job", job, null, Map.of("scheduledAt", scheduledAt.toString()), requestId);
            return new Receipt(job, scheduledAt, requestId);
        });
    }

    private Receipt earlier(String job, String requestId) {
        Optional<Receipt> earlier = jdbc.sql("""
                        SELECT job_name, scheduled_at FROM onebeat_trigger_request WHERE request_id = ?
                        """)
                .param(requestId)
                .query((rs, row) -> new Receipt(rs.getString(1), rs.getTimestamp(2).toInstant(), requestId))
                .optional();
        Receipt receipt = earlier.orElseThrow(() -> new IllegalStateException("request " + requestId + " vanished"));
        if (!receipt.job().equals(job)) {
            throw new AdminConflictException("request id '" + requestId + "' was already used to trigger job '"
                    + receipt.job() + "'; use a new id for job '" + job + "'");
        }
        return receipt;
    }

    /** Deletes up to {@code limit} trigger requests made before {@code before}, on the caller's connection. */
    public static int purge(Connection connection, Timestamp before, int limit) throws SQLException {
        return BatchDelete.rows(connection, """
                DELETE FROM onebeat_trigger_request WHERE request_id IN (
                    SELECT request_id FROM onebeat_trigger_request WHERE requested_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)""",
                before, limit);
    }
}
