--liquibase formatted sql

--changeset onebeat:worker-001-processed
--comment: the processed-key journal; PRIMARY KEY(consumer, idempotency_key) is the processed-once guard
CREATE TABLE onebeat_processed (
    consumer        VARCHAR(200) NOT NULL,
    idempotency_key VARCHAR(320) NOT NULL,
    processed_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    CONSTRAINT onebeat_processed_pk PRIMARY KEY (consumer, idempotency_key)
);
-- retention deletes journal entries by age
CREATE INDEX onebeat_processed_at_idx ON onebeat_processed (processed_at);
--rollback DROP TABLE onebeat_processed;

--changeset onebeat:worker-002-effect
--comment: side effects a transaction cannot roll back, recorded in the handler's transaction and sent after commit
CREATE TABLE onebeat_effect (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    idempotency_key VARCHAR(320) NOT NULL,
    channel         VARCHAR(100) NOT NULL,
    destination     TEXT         NOT NULL,
    payload         TEXT         NOT NULL,
    status          VARCHAR(16)  NOT NULL DEFAULT 'pending',
    attempts        INTEGER      NOT NULL DEFAULT 0,
    available_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    locked_by       VARCHAR(200),
    locked_until    TIMESTAMPTZ,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    sent_at         TIMESTAMPTZ,
    last_error      TEXT,
    CONSTRAINT onebeat_effect_idempotency_key_uq UNIQUE (idempotency_key),
    CONSTRAINT onebeat_effect_status_ck CHECK (status IN ('pending', 'sending', 'sent', 'dead'))
);
-- the sender claims due pending effects, oldest first (FOR UPDATE SKIP LOCKED)
CREATE INDEX onebeat_effect_due_idx ON onebeat_effect (available_at) WHERE status = 'pending';
-- a sender finds effects whose sending lease ran out
CREATE INDEX onebeat_effect_lease_idx ON onebeat_effect (locked_until) WHERE status = 'sending';
-- retention deletes sent and dead effects by age
CREATE INDEX onebeat_effect_finished_idx ON onebeat_effect (created_at) WHERE status IN ('sent', 'dead');
--rollback DROP TABLE onebeat_effect;

--changeset onebeat:worker-003-throttle
--comment: one row per (kind, subject); a conditional upsert on it lets one notification through per window
CREATE TABLE onebeat_throttle (
    kind    VARCHAR(100) NOT NULL,
    subject VARCHAR(200) NOT NULL,
    until   TIMESTAMPTZ  NOT NULL,
    CONSTRAINT onebeat_throttle_pk PRIMARY KEY (kind, subject)
);
--rollback DROP TABLE onebeat_throttle;
