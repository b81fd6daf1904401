--liquibase formatted sql

--changeset onebeat:004-admin-audit
--comment: every change made through the admin API, written in the change's own transaction
CREATE TABLE onebeat_audit (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          TIMESTAMPTZ  NOT NULL DEFAULT now(),
    actor       VARCHAR(200) NOT NULL,
    action      VARCHAR(64)  NOT NULL,
    target_type VARCHAR(32)  NOT NULL,
    target      VARCHAR(255) NOT NULL,
    before      JSONB,
    after       JSONB,
    request_id  VARCHAR(100)
);
-- the audit page lists newest first, optionally for one target or one actor
CREATE INDEX onebeat_audit_at_idx ON onebeat_audit (at DESC, id DESC);
CREATE INDEX onebeat_audit_target_idx ON onebeat_audit (target, at DESC);
CREATE INDEX onebeat_audit_actor_idx ON onebeat_audit (actor, at DESC);
--rollback DROP TABLE onebeat_audit;

--changeset onebeat:004-admin-trigger-request
--comment: one row per "trigger now" request id; the primary key makes a repeated request fire nothing new
CREATE TABLE onebeat_trigger_request (
    request_id   VARCHAR(100) NOT NULL PRIMARY KEY,
    job_name     VARCHAR(150) NOT NULL,
    scheduled_at TIMESTAMPTZ  NOT NULL,
    requested_by VARCHAR(200) NOT NULL,
    requested_at TIMESTAMPTZ  NOT NULL DEFAULT now()
);
--rollback DROP TABLE onebeat_trigger_request;

--changeset onebeat:004-admin-runtime-job
--comment: jobs created through the API (kind 'job', a declarative definition) and new schedules of jobs defined in code or configuration (kind 'override'); every replica polls this table
CREATE TABLE onebeat_runtime_job (
    name       VARCHAR(150) NOT NULL PRIMARY KEY,
    kind       VARCHAR(16)  NOT NULL,
    definition JSONB        NOT NULL,
    updated_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_by VARCHAR(200) NOT NULL,
    CONSTRAINT onebeat_runtime_job_kind_ck CHECK (kind IN ('job', 'override'))
);
--rollback DROP TABLE onebeat_runtime_job;
