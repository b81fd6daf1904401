--liquibase formatted sql

--changeset onebeat:024-fire-slices
--comment: a large instant of one schedule, divided by the replica that acquired its trigger into slices of jobs that every live replica claims (a row lock held while the slice fires, the row deleted once it has). A replica that dies frees its slice with its session; the fire ledger stays the guard against a job fired twice.
CREATE TABLE onebeat_fire_slice (
    schedule_key VARCHAR(40)  NOT NULL,
    scheduled_at TIMESTAMPTZ  NOT NULL,
    slice        INTEGER      NOT NULL,
    trigger_kind VARCHAR(16)  NOT NULL,
    jobs         TEXT[]       NOT NULL,
    created_by   VARCHAR(200) NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (schedule_key, scheduled_at, slice)
);
--rollback DROP TABLE onebeat_fire_slice;
