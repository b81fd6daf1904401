package dev.onebeat.scheduler.operate.retention;

import dev.onebeat.scheduler.boot.database.BatchDelete;
import dev.onebeat.scheduler.engine.fire.FireHorizon;
import dev.onebeat.scheduler.engine.fire.JobLockTable;
import dev.onebeat.scheduler.engine.outbox.TaskTable;
import dev.onebeat.scheduler.operate.admin.AuditLog;
import dev.onebeat.scheduler.operate.admin.ManualTriggers;
import dev.onebeat.scheduler.operate.backfill.BackfillTable;
import dev.onebeat.scheduler.operate.monitor.MonitorTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.function.Function;

/**
 * One table's delete of a batch of rows older than their horizon, run by the table's owner. Each statement picks its
 * rows through an index on the age it goes by, at most a batch of them, and skips rows another transaction holds.
 * The ledger's age is its instant's; the other tables' is when the row was written.
 */
enum Purge {

    // the ledger goes job by job (RetentionJob.purgeFires): each job's rows before its bound; the job's horizon
    // (FireHorizon) was moved over them first, so that none of them is fired again
    FIRES("onebeat_fire", RetentionProperties::fires, FireHorizon::purgeFires),
    ATTEMPTS("onebeat_fire_attempt", RetentionProperties::attempts, anyJob(FireHorizon::purgeAttempts)),
    EVENTS("onebeat_job_event", RetentionProperties::events, anyJob(MonitorTable::purgeEvents)),
    AUDIT("onebeat_audit", RetentionProperties::audit, anyJob(AuditLog::purge)),
    TRIGGER_REQUESTS("onebeat_trigger_request", RetentionProperties::triggerRequests, anyJob(ManualTriggers::purge)),
    PUBLISHED_TASKS("onebeat_task (published)", RetentionProperties::publishedTasks, anyJob(TaskTable::purgePublished)),
    FAILED_TASKS("onebeat_task (failed)", RetentionProperties::failedTasks, anyJob(TaskTable::purgeFailed)),
    // worker-kit's Throttle owns the table; the scheduler only deletes expired rows, here
    THROTTLES("onebeat_throttle", RetentionProperties::throttles, anyJob((connection, before, limit) ->
            BatchDelete.rows(connection, """
                    DELETE FROM onebeat_throttle WHERE (kind, subject) IN (
                        SELECT kind, subject FROM onebeat_throttle WHERE until < ? LIMIT ? FOR UPDATE SKIP LOCKED)""",
                    before, limit))),
    BACKFILLS("onebeat_backfill (ended)", RetentionProperties::backfills, anyJob(BackfillTable::purgeEnded)),
    DELETED_JOB_BACKFILLS("onebeat_backfill (deleted jobs)", RetentionProperties::deletedJobs,
            anyJob(BackfillTable::purgeDeletedJobs)),
    DELETED_JOB_MONITORS("onebeat_job_monitor (deleted jobs)", RetentionProperties::deletedJobs,
            anyJob(MonitorTable::purgeDeletedJobs)),
    LOCKS("shedlock (ended)", RetentionProperties::deletedJobs, anyJob(JobLockTable::purgeEnded));

    /** One batch of an owner's delete, on the retention fire's connection. */
    @FunctionalInterface
    interface Batch {
        /**
         * @param job the job whose rows go, for the ledger; null for the other tables
         * @return the rows deleted, at most {@code limit}
         */
        int delete(Connection connection, String job, Timestamp before, int limit) throws SQLException;
    }

    /** A delete over every job's rows. */
    @FunctionalInterface
    interface AnyJob {
        int delete(Connection connection, Timestamp before, int limit) throws SQLException;
    }

    private final String table;
    private final Function<RetentionProperties, Duration> age;
    private final Batch batch;

    Purge(String table, Function<RetentionProperties, Duration> age, Batch batch) {
        this.table = table;
        this.age = age;
        this.batch = batch;
    }

    private static Batch anyJob(AnyJob delete) {
        return (connection, job, before, limit) -> delete.delete(connection, before, limit);
    }

    String table() {
        return table;
    }

    Duration age(RetentionProperties properties) {
        return age.apply(properties);
    }

    int delete(Connection connection, String job, Timestamp before, int limit) throws SQLException {
        return batch.delete(connection, job, before, limit);
    }
}
