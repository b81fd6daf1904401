--liquibase formatted sql

--changeset onebeat:028-failed-once
--comment: a failed attempt of an instant is recorded once, whoever fails it: two replicas repeating one attempt (a Quartz recovery of a fire whose replica still ran it, or a retry trigger fired twice) used to record it twice, and each armed the next attempt, so one instant could run out of attempts, and be given up, twice. The replica whose record loses arms nothing. Duplicates written before this change are removed first, keeping the earliest row of each attempt; they are not restored on rollback.
DELETE FROM onebeat_fire_attempt a
USING onebeat_fire_attempt earlier
WHERE a.outcome = 'failed' AND earlier.outcome = 'failed'
  AND earlier.job_name = a.job_name AND earlier.scheduled_at = a.scheduled_at AND earlier.run_id = a.run_id
  AND earlier.attempt = a.attempt AND earlier.id < a.id;
CREATE UNIQUE INDEX onebeat_fire_attempt_failed_uq ON onebeat_fire_attempt (job_name, scheduled_at, run_id, attempt)
    WHERE outcome = 'failed';
--rollback DROP INDEX onebeat_fire_attempt_failed_uq;
