--liquibase formatted sql

--changeset onebeat:027-monitor-candidates
--comment: the missed-fire check reads only the jobs that may have something to judge: those whose deadline has come, those with ledger rows or attempts since the last check (by id), and those whose catalog row changed since (by updated_at); each replica refreshes its per-job gauges from the progress rows written since its last refresh (by updated_at). At a million jobs a check of every job took 4 to 7 s when nothing had happened.
CREATE INDEX onebeat_job_monitor_deadline_idx ON onebeat_job_monitor (next_deadline);
CREATE INDEX onebeat_job_updated_idx ON onebeat_job (updated_at);
CREATE INDEX onebeat_job_monitor_updated_idx ON onebeat_job_monitor (updated_at);
--rollback DROP INDEX onebeat_job_monitor_updated_idx;
--rollback DROP INDEX onebeat_job_updated_idx;
--rollback DROP INDEX onebeat_job_monitor_deadline_idx;
