--liquibase formatted sql

--changeset onebeat:014-job-monitor
--comment: what the missed-fire detector found. An event is written once per (job, instant, kind): an instant with no committed fire by its grace (missed), one failed for good (failed), the first success after the job was alerted on (recovered). The monitor row per job is the detector's progress: every expected instant at or before checked_until has been judged, oldest first, and the counters carry the job's streak across checks.
CREATE TABLE onebeat_job_event (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_name     VARCHAR(150)  NOT NULL,
    scheduled_at TIMESTAMPTZ   NOT NULL,
    kind         VARCHAR(16)   NOT NULL,
    reason       VARCHAR(500)  NOT NULL,
    alerted      BOOLEAN       NOT NULL,
    node         VARCHAR(200)  NOT NULL,
    detected_at  TIMESTAMPTZ   NOT NULL,
    CONSTRAINT onebeat_job_event_kind_ck CHECK (kind IN ('missed', 'failed', 'recovered')),
    -- once per (job, instant, kind), however often a check runs again
    CONSTRAINT onebeat_job_event_uq UNIQUE (job_name, scheduled_at, kind)
);
-- the dashboard's misses of the last day, and retention by age
CREATE INDEX onebeat_job_event_detected_idx ON onebeat_job_event (detected_at);

CREATE TABLE onebeat_job_monitor (
    job_name         VARCHAR(150) NOT NULL PRIMARY KEY,
    checked_until    TIMESTAMPTZ  NOT NULL,
    alerting         BOOLEAN      NOT NULL DEFAULT false,
    failures_in_row  INTEGER      NOT NULL DEFAULT 0,
    successes_in_row INTEGER      NOT NULL DEFAULT 0,
    last_success_at  TIMESTAMPTZ,
    next_deadline    TIMESTAMPTZ,
    updated_at       TIMESTAMPTZ  NOT NULL
);
--rollback DROP TABLE onebeat_job_monitor;
--rollback DROP TABLE onebeat_job_event;
