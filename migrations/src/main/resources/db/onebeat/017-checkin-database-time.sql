--liquibase formatted sql

--changeset onebeat:017-checkin-database-time
--comment: Quartz writes a replica's check-in (last_checkin_time) from that replica's clock; onebeat judges whether the replica holding a job's lock is alive against database time, so each check-in is also stamped with database time, by the database, whatever version of onebeat the replica runs
ALTER TABLE qrtz_scheduler_state ADD COLUMN onebeat_checked_in_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp();
--rollback ALTER TABLE qrtz_scheduler_state DROP COLUMN onebeat_checked_in_at;

--changeset onebeat:017-checkin-database-time-function splitStatements:false
CREATE FUNCTION onebeat_stamp_checkin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.onebeat_checked_in_at := clock_timestamp();
    RETURN NEW;
END
$$;
--rollback DROP FUNCTION onebeat_stamp_checkin();

--changeset onebeat:017-checkin-database-time-trigger
-- Quartz's check-in sets last_checkin_time only; the stamp follows it, and nothing else writes it
CREATE TRIGGER onebeat_checkin_stamp BEFORE INSERT OR UPDATE OF last_checkin_time ON qrtz_scheduler_state
    FOR EACH ROW EXECUTE FUNCTION onebeat_stamp_checkin();
--rollback DROP TRIGGER onebeat_checkin_stamp ON qrtz_scheduler_state;
