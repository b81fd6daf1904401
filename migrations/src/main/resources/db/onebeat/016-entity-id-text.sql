--liquibase formatted sql

--changeset onebeat:016-entity-id-text
--comment: a task's entity id is stored whole (onebeat accepts up to 4096 characters; past 255 every fire of the job used to fail); varchar to text changes no row, so PostgreSQL rewrites nothing
ALTER TABLE onebeat_task ALTER COLUMN entity_id TYPE TEXT;
--rollback ALTER TABLE onebeat_task ALTER COLUMN entity_id TYPE VARCHAR(255);
