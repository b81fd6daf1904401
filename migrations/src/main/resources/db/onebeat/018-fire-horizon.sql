--liquibase formatted sql

--changeset onebeat:018-fire-horizon
--comment: per job, the newest instant whose ledger row the retention job has deleted. At or before it the ledger can no longer prove an instant unfired, so no backfill, re-run or other fire commits such an instant again. Written by the retention pass in the transaction of its deletes, never lowered, never purged.
CREATE TABLE onebeat_fire_horizon (
    job_name       VARCHAR(150) NOT NULL PRIMARY KEY,
    purged_through TIMESTAMPTZ  NOT NULL,
    updated_at     TIMESTAMPTZ  NOT NULL
);
-- a database upgraded after the retention job has run (its own ledger rows are there): what it purged before this
-- table existed is unknown, so each job's horizon starts just before its oldest surviving ledger row
INSERT INTO onebeat_fire_horizon (job_name, purged_through, updated_at)
SELECT job_name, min(scheduled_at) - interval '1 microsecond', now() FROM onebeat_fire
WHERE EXISTS (SELECT 1 FROM onebeat_fire WHERE job_name = 'onebeat-retention')
GROUP BY job_name;
--rollback DROP TABLE onebeat_fire_horizon;
