--liquibase formatted sql

--changeset onebeat:029-retention-walk
--comment: where the retention job's walk over the ledger's jobs goes on: the job after which the next fire starts, written in the fire's own transaction, so that a fire on any replica continues the walk where the last one committed stopped it (it was kept in each replica's memory).
CREATE TABLE onebeat_retention_walk (
    walk         VARCHAR(50)  PRIMARY KEY,
    resume_after VARCHAR(200) NOT NULL,
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT now()
);
--rollback DROP TABLE onebeat_retention_walk;
