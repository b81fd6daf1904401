--liquibase formatted sql

--changeset onebeat:010-skipped-once
--comment: an instant skipped for a reason is recorded once, however often its schedule's fire is run again (a recovery repeats it)
CREATE UNIQUE INDEX onebeat_fire_attempt_skipped_uq ON onebeat_fire_attempt (job_name, scheduled_at, run_id, reason)
    WHERE outcome = 'skipped';
--rollback DROP INDEX onebeat_fire_attempt_skipped_uq;
