--liquibase formatted sql

--changeset onebeat:001-shedlock
--comment: ShedLock's table; every fire holds onebeat:<job> here, with lock_until in database time
CREATE TABLE shedlock (
    name       VARCHAR(200) NOT NULL PRIMARY KEY,
    lock_until TIMESTAMP    NOT NULL,
    locked_at  TIMESTAMP    NOT NULL,
    locked_by  VARCHAR(255) NOT NULL
);
--rollback DROP TABLE shedlock;
