--liquibase formatted sql

--changeset onebeat:029-retention-walk
--comment: where the retention job's walk over the ledger's jobs goes on: the job after which the next fire starts, written in the fire's own transaction, so that a fire on any replica continues the walk where the last committed one stopped it (it was kept in each replica's memory). One row; no row: from the first job.
CREATE TABLE onebeat_retention_walk (
    id SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    resume_after VARCHAR(150) NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);
--rollback DROP TABLE onebeat_retention_walk;
