--liquibase formatted sql

--changeset test:digest-one
CREATE TABLE digest_one (id INTEGER);
