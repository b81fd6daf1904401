--liquibase formatted sql

--changeset test:digest-two
CREATE TABLE digest_two (id INTEGER);
