--liquibase formatted sql

--changeset onebeat:020-fire-faults
--comment: periods in which a replica's fires could not reach the database (Quartz could not acquire or mark its triggers, a schedule's jobs could not be read, a fire's lock or transaction failed), written by that replica once the database answers again. An instant that no fire began by its grace and that falls in such a period is missed for that reason, which the instants API and the detector's event give.
CREATE TABLE onebeat_fire_fault (
    node     VARCHAR(200) NOT NULL,
    stage    VARCHAR(16)  NOT NULL,
    since    TIMESTAMPTZ  NOT NULL,
    until    TIMESTAMPTZ  NOT NULL,
    failures INTEGER      NOT NULL,
    error    VARCHAR(300) NOT NULL,
    CONSTRAINT onebeat_fire_fault_stage_ck CHECK (stage IN ('quartz', 'members', 'fire')),
    CONSTRAINT onebeat_fire_fault_period_ck CHECK (until >= since),
    -- one row per period of one replica's stage: written again as the period grows
    PRIMARY KEY (node, stage, since)
);
-- the periods overlapping a range of instants, and their purge by age
CREATE INDEX onebeat_fire_fault_until_idx ON onebeat_fire_fault (until);
--rollback DROP TABLE onebeat_fire_fault;
