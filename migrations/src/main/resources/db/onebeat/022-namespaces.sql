--liquibase formatted sql

--changeset onebeat:022-namespaces-job
--comment: the namespace each job belongs to (a team's share of the cluster); jobs stored before namespaces belong to 'default'. A namespace's page and its limits read its jobs by it.
ALTER TABLE onebeat_job ADD COLUMN namespace VARCHAR(63) NOT NULL DEFAULT 'default';
CREATE INDEX onebeat_job_namespace_idx ON onebeat_job (namespace, name);
--rollback DROP INDEX onebeat_job_namespace_idx;
--rollback ALTER TABLE onebeat_job DROP COLUMN namespace;

--changeset onebeat:022-namespaces-audit
--comment: the namespace of the job an audit entry is about, null for what belongs to the whole cluster (calendars, users); an operator of one namespace reads its entries only
ALTER TABLE onebeat_audit ADD COLUMN namespace VARCHAR(63);
CREATE INDEX onebeat_audit_namespace_idx ON onebeat_audit (namespace, at DESC);
-- every job was of 'default' before namespaces: so are the entries about jobs and their tasks written until now
UPDATE onebeat_audit SET namespace = 'default' WHERE target_type IN ('job', 'task');
--rollback DROP INDEX onebeat_audit_namespace_idx;
--rollback ALTER TABLE onebeat_audit DROP COLUMN namespace;

--changeset onebeat:022-namespaces-applied
--comment: a runtime job applied from a job file (plan and apply): the file it came from, and its definition as applied, so that a change made by hand since shows as drift (definition differs from applied)
ALTER TABLE onebeat_runtime_job ADD COLUMN applied_from VARCHAR(300);
ALTER TABLE onebeat_runtime_job ADD COLUMN applied JSONB;
--rollback ALTER TABLE onebeat_runtime_job DROP COLUMN applied;
--rollback ALTER TABLE onebeat_runtime_job DROP COLUMN applied_from;
