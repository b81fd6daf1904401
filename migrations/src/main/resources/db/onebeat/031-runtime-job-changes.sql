--liquibase formatted sql

--changeset onebeat:031-runtime-job-changes
--comment: which transaction last wrote each runtime job (changed_txid), and the names of those deleted (onebeat_runtime_job_removed), so that a replica reloads only the runtime jobs changed since its last load instead of all of them: at a million runtime jobs a whole reload held a core for about 20 s, on every replica and for every change. A name of null there means the table was truncated: every replica loads it whole again. Removed names are pruned after an hour; pruned_through says up to which transaction, and a replica that loaded before it loads whole.
ALTER TABLE onebeat_runtime_job ADD COLUMN changed_txid BIGINT NOT NULL DEFAULT txid_current();
CREATE INDEX onebeat_runtime_job_changed_idx ON onebeat_runtime_job (changed_txid);
CREATE TABLE onebeat_runtime_job_removed (
    name         VARCHAR(150),
    removed_txid BIGINT      NOT NULL DEFAULT txid_current(),
    removed_at   TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX onebeat_runtime_job_removed_txid_idx ON onebeat_runtime_job_removed (removed_txid);
CREATE INDEX onebeat_runtime_job_removed_at_idx ON onebeat_runtime_job_removed (removed_at);
ALTER TABLE onebeat_runtime_job_version ADD COLUMN pruned_through BIGINT NOT NULL DEFAULT 0;
--rollback ALTER TABLE onebeat_runtime_job_version DROP COLUMN pruned_through;
--rollback DROP TABLE onebeat_runtime_job_removed;
--rollback DROP INDEX onebeat_runtime_job_changed_idx;
--rollback ALTER TABLE onebeat_runtime_job DROP COLUMN changed_txid;

--changeset onebeat:031-runtime-job-changes-functions splitStatements:false
CREATE FUNCTION onebeat_runtime_job_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- whatever the statement wrote into the column: an insert copying rows from elsewhere must be read as new too
    NEW.changed_txid := txid_current();
    RETURN NEW;
END
$$;
CREATE FUNCTION onebeat_runtime_job_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        INSERT INTO onebeat_runtime_job_removed (name) VALUES (NULL);
    ELSE
        -- a delete, or an update that renamed the row
        INSERT INTO onebeat_runtime_job_removed (name) VALUES (OLD.name);
    END IF;
    RETURN NULL;
END
$$;
--rollback DROP FUNCTION onebeat_runtime_job_removed();
--rollback DROP FUNCTION onebeat_runtime_job_stamp();

--changeset onebeat:031-runtime-job-changes-triggers
CREATE TRIGGER onebeat_runtime_job_stamp BEFORE INSERT OR UPDATE ON onebeat_runtime_job
    FOR EACH ROW EXECUTE FUNCTION onebeat_runtime_job_stamp();
CREATE TRIGGER onebeat_runtime_job_deleted AFTER DELETE ON onebeat_runtime_job
    FOR EACH ROW EXECUTE FUNCTION onebeat_runtime_job_removed();
CREATE TRIGGER onebeat_runtime_job_renamed AFTER UPDATE ON onebeat_runtime_job
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION onebeat_runtime_job_removed();
CREATE TRIGGER onebeat_runtime_job_emptied AFTER TRUNCATE ON onebeat_runtime_job
    FOR EACH STATEMENT EXECUTE FUNCTION onebeat_runtime_job_removed();
--rollback DROP TRIGGER onebeat_runtime_job_emptied ON onebeat_runtime_job; DROP TRIGGER onebeat_runtime_job_renamed ON onebeat_runtime_job; DROP TRIGGER onebeat_runtime_job_deleted ON onebeat_runtime_job; DROP TRIGGER onebeat_runtime_job_stamp ON onebeat_runtime_job;
