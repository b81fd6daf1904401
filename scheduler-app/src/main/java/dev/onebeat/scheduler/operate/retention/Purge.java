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

    // the ledger goes a slice of jobs at a time (RetentionJob.purgeFires, FireHorizon.purgeFires): each job's rows
    // before its bound; the jobs' horizons (FireHorizon) were moved over them first, so that none is fired again
    FIRES("onebeat_fire", RetentionProperties::fires, null),
    ATTEMPTS("onebeat_fire_attempt", RetentionProperties::attempts, FireHorizon::purgeAttempts),
    EVENTS("onebeat_job_event", RetentionProperties::events, MonitorTable::purgeEvents),
    AUDIT("onebeat_audit", RetentionProperties::audit, AuditLog::purge),
    TRIGGER_REQUESTS("onebeat_trigger_request", RetentionProperties::triggerRequests, ManualTriggers::purge),
    PUBLISHED_TASKS("onebeat_task (published)", RetentionProperties::publishedTasks, TaskTable::purgePublished),
    FAILED_TASKS("onebeat_task (failed)", RetentionProperties::failedTasks, TaskTable::purgeFailed),
    // worker-kit's Throttle owns the table; the scheduler only deletes expired rows, here
    THROTTLES("onebeat_throttle", RetentionProperties::throttles, (connection, before, limit) ->
            BatchDelete.rows(connection, """
                    DELETE FROM onebeat_throttle WHERE (kind, subject) IN (
                        SELECT kind, subject FROM onebeat_throttle WHERE until < ? LIMIT ? FOR UPDATE SKIP LOCKED)""",
                    before, limit)),
    BACKFILLS("onebeat_backfill (ended)", RetentionProperties::backfills, BackfillTable::purgeEnded),
    DELETED_JOB_BACKFILLS("onebeat_backfill (deleted jobs)", RetentionProperties::deletedJobs,
            BackfillTable::purgeDeletedJobs),
    DELETED_JOB_MONITORS("onebeat_job_monitor (deleted jobs)", RetentionProperties::deletedJobs,
            MonitorTable::purgeDeletedJobs),
    LOCKS("shedlock (ended)", RetentionProperties::deletedJobs, JobLockTable::purgeEnded);

    /** One batch of an owner's delete over every job's rows, on the retention fire's connection. */
    @FunctionalInterface
    interface Batch {
        /** @return the rows deleted, at most {@code limit} */
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

    String table() {
        return table;
    }

    Duration age(RetentionProperties properties) {
        return age.apply(properties);
    }

    /** @throws IllegalStateException for the ledger, which goes by slices of jobs instead */
    int delete(Connection connection, Timestamp before, int limit) throws SQLException {
        if (batch == null) {
            throw new IllegalStateException(table + " is purged a slice of jobs at a time, not by age alone");
        }
        return batch.delete(connection, before, limit);
    }
}
