--liquibase formatted sql

--changeset onebeat:015-retention
--comment: what the built-in retention job deletes by age is found through an index: trigger requests by when they were made, failed outbox rows by when they were written (published, done and dead ones have theirs since 003), expired throttle rows by when they ran out
CREATE INDEX onebeat_trigger_request_at_idx ON onebeat_trigger_request (requested_at);
CREATE INDEX onebeat_task_failed_idx ON onebeat_task (created_at) WHERE status = 'failed';
CREATE INDEX onebeat_throttle_until_idx ON onebeat_throttle (until);
--rollback DROP INDEX onebeat_throttle_until_idx;
--rollback DROP INDEX onebeat_task_failed_idx;
--rollback DROP INDEX onebeat_trigger_request_at_idx;
