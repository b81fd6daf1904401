--liquibase formatted sql

--changeset onebeat:007-fire-attempts
--comment: every attempt of a (job, instant) that did not commit: failed (with the error and whether another attempt is due), skipped (with the reason) or a duplicate. The committed attempt stays the one row of onebeat_fire, which now says which attempt it was.
CREATE TABLE onebeat_fire_attempt (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_name      VARCHAR(150)  NOT NULL,
    scheduled_at  TIMESTAMPTZ   NOT NULL,
    attempt       INTEGER       NOT NULL,
    outcome       VARCHAR(16)   NOT NULL,
    reason        VARCHAR(40),
    error_class   VARCHAR(300),
    error_message VARCHAR(2000),
    node          VARCHAR(200)  NOT NULL,
    trigger_kind  VARCHAR(16)   NOT NULL,
    attempted_at  TIMESTAMPTZ   NOT NULL,
    retry_at      TIMESTAMPTZ,
    CONSTRAINT onebeat_fire_attempt_outcome_ck CHECK (outcome IN ('failed', 'skipped', 'duplicate')),
    CONSTRAINT onebeat_fire_attempt_reason_ck CHECK ((outcome = 'skipped') = (reason IS NOT NULL)),
    CONSTRAINT onebeat_fire_attempt_retry_ck CHECK (retry_at IS NULL OR outcome = 'failed')
);
-- the history of one job, and the attempts of one instant
CREATE INDEX onebeat_fire_attempt_job_idx ON onebeat_fire_attempt (job_name, scheduled_at);
-- the latest attempts of any job, on the dashboard
CREATE INDEX onebeat_fire_attempt_at_idx ON onebeat_fire_attempt (attempted_at);
ALTER TABLE onebeat_fire ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
ALTER TABLE onebeat_fire DROP CONSTRAINT onebeat_fire_trigger_kind_ck;
ALTER TABLE onebeat_fire ADD CONSTRAINT onebeat_fire_trigger_kind_ck
    CHECK (trigger_kind IN ('scheduled', 'misfire', 'recovery', 'manual', 'retry', 'backfill'));
--rollback ALTER TABLE onebeat_fire DROP CONSTRAINT onebeat_fire_trigger_kind_ck;
--rollback ALTER TABLE onebeat_fire ADD CONSTRAINT onebeat_fire_trigger_kind_ck CHECK (trigger_kind IN ('scheduled', 'misfire', 'recovery', 'manual'));
--rollback ALTER TABLE onebeat_fire DROP COLUMN attempt;
--rollback DROP TABLE onebeat_fire_attempt;
