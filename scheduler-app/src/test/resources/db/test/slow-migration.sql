--liquibase formatted sql

--changeset test:slow-migration
-- longer than the test pool's socketTimeout, and records the server-side bounds the migration ran under
CREATE TABLE migration_session AS
SELECT current_setting('lock_timeout') AS lock_timeout,
       current_setting('idle_in_transaction_session_timeout') AS idle_in_transaction,
       (SELECT 1 FROM pg_sleep(2)) AS slept;
