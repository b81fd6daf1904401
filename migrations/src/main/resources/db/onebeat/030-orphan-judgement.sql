--liquibase formatted sql

--changeset onebeat:030-orphan-judgement
--comment: the cluster's last judgement of orphaned jobs: what it depended on (the live replicas, their registrations, the runtime jobs' version), when it was made and until when it stands, by database time. A replica whose turn comes judges only when the inputs differ or the judgement no longer stands, so the cluster reads its catalog once per change, not once per replica. One row; no row: the next turn judges.
CREATE TABLE onebeat_orphan_judgement (
    id SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    inputs TEXT,
    judged_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
    stands_until TIMESTAMP WITH TIME ZONE NOT NULL
);
--rollback DROP TABLE onebeat_orphan_judgement;
