package dev.onebeat.scheduler.operate.retention;

import java.time.Duration;
import java.util.function.Function;

/**
 * One table's delete of a batch of rows older than their horizon. Each statement picks its rows through an index on
 * the age it goes by, at most a batch of them, and skips rows another transaction holds. The ledger's age is its
 * instant's; the other tables' is when the row was written.
 */
enum Purge {

    // the ledger goes job by job (RetentionJob.purgeFires): each job's rows before its bound, a range of
    // UNIQUE(job_name, scheduled_at, run_id); the job's horizon (FireHorizon) was moved over them first, so that none
    // of them is fired again
    FIRES("onebeat_fire", RetentionProperties::fires, """
            DELETE FROM onebeat_fire WHERE id IN (
                SELECT id FROM onebeat_fire WHERE job_name = ? AND scheduled_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    ATTEMPTS("onebeat_fire_attempt", RetentionProperties::attempts, """
            DELETE FROM onebeat_fire_attempt WHERE id IN (
                SELECT id FROM onebeat_fire_attempt WHERE attempted_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    EVENTS("onebeat_job_event", RetentionProperties::events, """
            DELETE FROM onebeat_job_event WHERE id IN (
                SELECT id FROM onebeat_job_event WHERE detected_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    AUDIT("onebeat_audit", RetentionProperties::audit, """
            DELETE FROM onebeat_audit WHERE id IN (
                SELECT id FROM onebeat_audit WHERE at < ? LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    TRIGGER_REQUESTS("onebeat_trigger_request", RetentionProperties::triggerRequests, """
            DELETE FROM onebeat_trigger_request WHERE request_id IN (
                SELECT request_id FROM onebeat_trigger_request WHERE requested_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    // only finished rows: pending and claimed ones are still the relay's or a worker's
    PUBLISHED_TASKS("onebeat_task (published)", RetentionProperties::publishedTasks, """
            DELETE FROM onebeat_task WHERE id IN (
                SELECT id FROM onebeat_task WHERE status IN ('published', 'done') AND created_at < ?
                LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    FAILED_TASKS("onebeat_task (failed)", RetentionProperties::failedTasks, """
            DELETE FROM onebeat_task WHERE id IN (
                SELECT id FROM onebeat_task WHERE status IN ('failed', 'dead') AND created_at < ?
                LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    THROTTLES("onebeat_throttle", RetentionProperties::throttles, """
            DELETE FROM onebeat_throttle WHERE (kind, subject) IN (
                SELECT kind, subject FROM onebeat_throttle WHERE until < ? LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    // only ended ones: a running backfill is still some replica's work
    BACKFILLS("onebeat_backfill (ended)", RetentionProperties::backfills, """
            DELETE FROM onebeat_backfill WHERE id IN (
                SELECT id FROM onebeat_backfill WHERE state <> 'running' AND updated_at < ?
                LIMIT ? FOR UPDATE SKIP LOCKED)"""),
    // a job no longer in the catalog: no replica works on its backfills, running or not, any more
    DELETED_JOB_BACKFILLS("onebeat_backfill (deleted jobs)", RetentionProperties::deletedJobs, """
            DELETE FROM onebeat_backfill WHERE id IN (
                SELECT b.id FROM onebeat_backfill b WHERE b.updated_at < ?
                AND NOT EXISTS (SELECT 1 FROM onebeat_job j WHERE j.name = b.job_name)
                LIMIT ? FOR UPDATE OF b SKIP LOCKED)"""),
    // the detector's progress of a job no longer in the catalog; a job created again under the name starts afresh
    DELETED_JOB_MONITORS("onebeat_job_monitor (deleted jobs)", RetentionProperties::deletedJobs, """
            DELETE FROM onebeat_job_monitor WHERE job_name IN (
                SELECT m.job_name FROM onebeat_job_monitor m WHERE m.updated_at < ?
                AND NOT EXISTS (SELECT 1 FROM onebeat_job j WHERE j.name = m.job_name)
                LIMIT ? FOR UPDATE OF m SKIP LOCKED)"""),
    // lock rows run out that no fire can take again: those of a job no longer in the catalog, of one instant
    // (onebeat:<job>@<millis>, overlap policy allow: never the name of a job) and of a backfill. lock_until is UTC
    // without a zone (ShedLock); an expired row is not held, and ShedLock inserts it again when a lock is asked for
    LOCKS("shedlock (ended)", RetentionProperties::deletedJobs, """
            DELETE FROM shedlock WHERE name IN (
                SELECT s.name FROM shedlock s WHERE s.lock_until < timezone('utc', ?::timestamptz)
                AND (s.name LIKE 'onebeat-backfill:%'
                     OR (s.name LIKE 'onebeat:%' OR s.name LIKE 'onebeat-waiting:%' OR s.name LIKE 'onebeat-next:%')
                        AND NOT EXISTS (SELECT 1 FROM onebeat_job j
                                        WHERE j.name = substring(s.name FROM position(':' IN s.name) + 1)))
                LIMIT ? FOR UPDATE OF s SKIP LOCKED)""");

    private final String table;
    private final Function<RetentionProperties, Duration> age;
    private final String sql;

    Purge(String table, Function<RetentionProperties, Duration> age, String sql) {
        this.table = table;
        this.age = age;
        this.sql = sql;
    }

    String table() {
        return table;
    }

    Duration age(RetentionProperties properties) {
        return age.apply(properties);
    }

    String sql() {
        return sql;
    }

}
