--liquibase formatted sql

--changeset onebeat:013-backfill
--comment: an operator's backfill of a range of a job's instants: every instant of the schedule in [range_from, range_to) is checked, oldest first, and fired (trigger kind backfill) when it has no committed fire. The cursor is the last instant handled, so a replica taking over after a restart goes on from there.
CREATE TABLE onebeat_backfill (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_name    VARCHAR(150) NOT NULL,
    range_from  TIMESTAMPTZ  NOT NULL,
    range_to    TIMESTAMPTZ  NOT NULL,
    state       VARCHAR(16)  NOT NULL,
    total       INTEGER      NOT NULL,
    done        INTEGER      NOT NULL DEFAULT 0,
    fired       INTEGER      NOT NULL DEFAULT 0,
    failed      INTEGER      NOT NULL DEFAULT 0,
    cursor_at   TIMESTAMPTZ,
    created_by  VARCHAR(200) NOT NULL,
    created_at  TIMESTAMPTZ  NOT NULL,
    updated_at  TIMESTAMPTZ  NOT NULL,
    CONSTRAINT onebeat_backfill_state_ck CHECK (state IN ('running', 'done', 'cancelled')),
    CONSTRAINT onebeat_backfill_range_ck CHECK (range_from < range_to),
    CONSTRAINT onebeat_backfill_done_ck CHECK (done <= total)
);
-- every replica looks for the backfills still running
CREATE INDEX onebeat_backfill_running_idx ON onebeat_backfill (id) WHERE state = 'running';
-- a job's backfills, newest first
CREATE INDEX onebeat_backfill_job_idx ON onebeat_backfill (job_name, id);
--rollback DROP TABLE onebeat_backfill;
