--liquibase formatted sql

--changeset onebeat:008-pause-reason
--comment: an operator's pause may say why, and until when: a job paused until a time fires again from its first instant at or after that time, and the pause is then cleared and audited by whichever replica sees it first
ALTER TABLE onebeat_job ADD COLUMN pause_reason VARCHAR(500);
ALTER TABLE onebeat_job ADD COLUMN paused_until TIMESTAMPTZ;
-- the replicas look for pauses that have run out
CREATE INDEX onebeat_job_paused_until_idx ON onebeat_job (paused_until) WHERE paused_until IS NOT NULL;
--rollback DROP INDEX onebeat_job_paused_until_idx;
--rollback ALTER TABLE onebeat_job DROP COLUMN paused_until;
--rollback ALTER TABLE onebeat_job DROP COLUMN pause_reason;
