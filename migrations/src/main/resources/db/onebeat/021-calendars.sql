--liquibase formatted sql

--changeset onebeat:021-calendars
--comment: calendars made through the admin API (days and weekly windows in a zone) that jobs fire inside or never fire inside; those of configuration are not stored. Each replica reads them again within its runtime-jobs poll.
CREATE TABLE onebeat_calendar (
    name       VARCHAR(100) NOT NULL PRIMARY KEY,
    definition JSONB        NOT NULL,
    updated_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_by VARCHAR(200) NOT NULL
);
--rollback DROP TABLE onebeat_calendar;

--changeset onebeat:021-calendars-skip-reason
--comment: a skip's reason may name a calendar (excluded by calendar '<name of up to 100 characters>'); a longer varchar keeps the rows and their index as they are
ALTER TABLE onebeat_fire_attempt ALTER COLUMN reason TYPE VARCHAR(300);
--rollback ALTER TABLE onebeat_fire_attempt ALTER COLUMN reason TYPE VARCHAR(40);
