--liquibase formatted sql

--changeset onebeat:005-job-catalog
--comment: every job of the cluster, the schedule it fires on, and whether it is paused; jobs sharing a schedule share one Quartz trigger
CREATE TABLE onebeat_job (
    name         VARCHAR(150) NOT NULL PRIMARY KEY,
    schedule_key VARCHAR(40)  NOT NULL,
    schedule     TEXT         NOT NULL,
    member_since TIMESTAMPTZ  NOT NULL,
    previous_key VARCHAR(40),
    left_at      TIMESTAMPTZ,
    paused       BOOLEAN      NOT NULL DEFAULT false,
    orphaned     BOOLEAN      NOT NULL DEFAULT false,
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT now()
);
-- a schedule's fire reads its members
CREATE INDEX onebeat_job_schedule_idx ON onebeat_job (schedule_key);
-- ... and the jobs that left it, for the instants it owed them before they moved
CREATE INDEX onebeat_job_previous_idx ON onebeat_job (previous_key) WHERE previous_key IS NOT NULL;
--rollback DROP TABLE onebeat_job;
