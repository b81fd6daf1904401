--liquibase formatted sql

--changeset onebeat:003-task-outbox
--comment: tasks dispatched by fires, written in the fire's transaction; UNIQUE(idempotency_key) makes a re-run a no-op
CREATE TABLE onebeat_task (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    idempotency_key VARCHAR(255) NOT NULL,
    job_name        VARCHAR(150) NOT NULL,
    scheduled_at    TIMESTAMPTZ  NOT NULL,
    task            VARCHAR(255) NOT NULL,
    queue           VARCHAR(255) NOT NULL,
    entity_type     VARCHAR(255),
    entity_id       VARCHAR(255),
    payload         JSONB        NOT NULL,
    status          VARCHAR(16)  NOT NULL DEFAULT 'pending',
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    available_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    published_at    TIMESTAMPTZ,
    attempts        INTEGER      NOT NULL DEFAULT 0,
    last_error      TEXT,
    locked_by       VARCHAR(200),
    locked_until    TIMESTAMPTZ,
    CONSTRAINT onebeat_task_idempotency_key_uq UNIQUE (idempotency_key),
    CONSTRAINT onebeat_task_status_ck CHECK (status IN ('pending', 'claimed', 'published', 'done', 'failed', 'dead'))
);
-- relay and in-database workers claim due pending tasks per queue, oldest first (FOR UPDATE SKIP LOCKED)
CREATE INDEX onebeat_task_due_idx ON onebeat_task (queue, available_at) WHERE status = 'pending';
-- workers find tasks whose lease ran out
CREATE INDEX onebeat_task_lease_idx ON onebeat_task (locked_until) WHERE status = 'claimed';
-- a fire's tasks, for history pages
CREATE INDEX onebeat_task_fire_idx ON onebeat_task (job_name, scheduled_at);
-- retention deletes finished tasks by age
CREATE INDEX onebeat_task_finished_idx ON onebeat_task (created_at) WHERE status IN ('published', 'done', 'dead');
--rollback DROP TABLE onebeat_task;
