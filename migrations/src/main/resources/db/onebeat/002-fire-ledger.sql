--liquibase formatted sql

--changeset onebeat:002-fire-ledger
--comment: one row per committed fire; UNIQUE(job_name, scheduled_at) is the exactly-once guard
CREATE TABLE onebeat_fire (
    id                   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_name             VARCHAR(150) NOT NULL,
    scheduled_at         TIMESTAMPTZ  NOT NULL,
    fired_at             TIMESTAMPTZ  NOT NULL,
    node                 VARCHAR(200) NOT NULL,
    trigger_kind         VARCHAR(16)  NOT NULL,
    outcome              VARCHAR(16)  NOT NULL,
    task_count           INTEGER      NOT NULL DEFAULT 0,
    duplicate_task_count INTEGER      NOT NULL DEFAULT 0,
    duration_ms          BIGINT       NOT NULL DEFAULT 0,
    CONSTRAINT onebeat_fire_job_scheduled_uq UNIQUE (job_name, scheduled_at),
    CONSTRAINT onebeat_fire_trigger_kind_ck CHECK (trigger_kind IN ('scheduled', 'misfire', 'recovery', 'manual')),
    CONSTRAINT onebeat_fire_outcome_ck CHECK (outcome IN ('committed'))
);
-- fire history pages and "fires in the last hour" read by time
CREATE INDEX onebeat_fire_fired_at_idx ON onebeat_fire (fired_at);
--rollback DROP TABLE onebeat_fire;
