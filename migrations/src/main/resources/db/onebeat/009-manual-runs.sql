--liquibase formatted sql

--changeset onebeat:009-manual-runs
--comment: a run outside the schedule ("trigger now") has a key space of its own: its request id. The ledger is unique on (job, instant, run), the schedule's fires having the empty run, so a manual run never takes a scheduled instant's slot nor another run's, even in the same millisecond.
ALTER TABLE onebeat_fire ADD COLUMN run_id VARCHAR(100) NOT NULL DEFAULT '';
ALTER TABLE onebeat_fire DROP CONSTRAINT onebeat_fire_job_scheduled_uq;
ALTER TABLE onebeat_fire ADD CONSTRAINT onebeat_fire_job_scheduled_uq UNIQUE (job_name, scheduled_at, run_id);
ALTER TABLE onebeat_fire_attempt ADD COLUMN run_id VARCHAR(100) NOT NULL DEFAULT '';
--rollback ALTER TABLE onebeat_fire_attempt DROP COLUMN run_id;
--rollback ALTER TABLE onebeat_fire DROP CONSTRAINT onebeat_fire_job_scheduled_uq;
--rollback ALTER TABLE onebeat_fire ADD CONSTRAINT onebeat_fire_job_scheduled_uq UNIQUE (job_name, scheduled_at);
--rollback ALTER TABLE onebeat_fire DROP COLUMN run_id;
