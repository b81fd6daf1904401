--liquibase formatted sql

--changeset onebeat:026-job-name-search splitStatements:false
--comment: a trigram index on the job names, so that a search of the console or of GET /api/jobs finds its jobs by index instead of reading the whole catalog (a million jobs take a sequential scan of over 100 ms per search). pg_trgm ships with PostgreSQL's contrib modules and is a trusted extension since PostgreSQL 13 (a database owner may create it); where it cannot be created the migration goes on without the index, and searches scan the catalog as before.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'onebeat: pg_trgm could not be created (%); job searches will scan the job catalog', SQLERRM;
END
$$;
DO $$
DECLARE
    trgm_schema TEXT;
BEGIN
    -- the extension may live in another schema than the tables (a managed database's "extensions")
    SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
    IF trgm_schema IS NOT NULL THEN
        EXECUTE format('CREATE INDEX IF NOT EXISTS onebeat_job_name_trgm_idx ON onebeat_job USING gin (lower(name) %I.gin_trgm_ops)',
                       trgm_schema);
    END IF;
EXCEPTION WHEN OTHERS THEN
    -- the extension's schema not usable by this role, say: searches scan the catalog; docs/postgresql.md says how to
    -- add the index later
    RAISE NOTICE 'onebeat: the trigram index of job names could not be created (%); job searches will scan the job catalog', SQLERRM;
END
$$;
--rollback DROP INDEX IF EXISTS onebeat_job_name_trgm_idx;
