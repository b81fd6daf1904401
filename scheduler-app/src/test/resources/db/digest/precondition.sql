--liquibase formatted sql

--changeset test:digest-precondition
--preconditions onFail:CONTINUE
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pg_class WHERE relname = 'digest_one'
CREATE TABLE digest_one (id INTEGER);
