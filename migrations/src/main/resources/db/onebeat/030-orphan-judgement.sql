--liquibase formatted sql

--changeset onebeat:030-orphan-judgement
--comment: the cluster's last judgement of orphaned jobs: what it depended on (the live replicas, their registrations, the runtime jobs' version) and when, by database time. A replica whose turn comes judges only when these differ or the judgement is old, so the cluster reads its catalog once per change, not once per replica. One row; no row: the next turn judges.
CREATE TABLE onebeat_orphan_judgement (
    id SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    inputs TEXT,
    judged_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);
--rollback DROP TABLE onebeat_orphan_judgement;
