--liquibase formatted sql

--changeset test:digest-parameter
CREATE TABLE digest_${digest_test_suffix} (id INTEGER);
