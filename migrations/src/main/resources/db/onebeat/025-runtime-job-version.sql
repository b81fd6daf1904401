--liquibase formatted sql

--changeset onebeat:025-runtime-job-version
--comment: a counter every write to onebeat_runtime_job moves on, in the writer's transaction: a replica polls this one row for changes made on other replicas, instead of a digest of every runtime job (half a second of the server's time at 100,000 jobs, per replica and poll)
CREATE TABLE onebeat_runtime_job_version (
    id      SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    version BIGINT   NOT NULL
);
INSERT INTO onebeat_runtime_job_version (id, version) VALUES (1, 1);
--rollback DROP TABLE onebeat_runtime_job_version;

--changeset onebeat:025-runtime-job-version-function splitStatements:false
CREATE FUNCTION onebeat_runtime_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE onebeat_runtime_job_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END
$$;
--rollback DROP FUNCTION onebeat_runtime_job_changed();

--changeset onebeat:025-runtime-job-version-trigger
-- once per statement, whatever writes the table: the admin API, an import, an operator's SQL
CREATE TRIGGER onebeat_runtime_job_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON onebeat_runtime_job
    FOR EACH STATEMENT EXECUTE FUNCTION onebeat_runtime_job_changed();
--rollback DROP TRIGGER onebeat_runtime_job_changed ON onebeat_runtime_job;

--changeset onebeat:025-node-registered-at
--comment: when each replica last wrote the jobs it registers (onebeat_node_job): with the live replicas and the runtime jobs' version, what the orphan judgement reads, so that a replica judges every job again only when one of them changed (a full judgement reads the whole catalog: three quarters of a second at 100,000 jobs)
ALTER TABLE onebeat_node ADD COLUMN registered_at TIMESTAMPTZ;
--rollback ALTER TABLE onebeat_node DROP COLUMN registered_at;
