--liquibase formatted sql

--changeset onebeat:006-node
--comment: each replica's time-zone data (tzdb) and Java versions, recorded at its start-up; replicas on different tzdata can compute different instants for one cron
CREATE TABLE onebeat_node (
    instance_id  VARCHAR(200) NOT NULL PRIMARY KEY,
    tzdata       VARCHAR(32)  NOT NULL,
    java_version VARCHAR(100) NOT NULL,
    started_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    seen_at      TIMESTAMPTZ  NOT NULL DEFAULT now()
);
--rollback DROP TABLE onebeat_node;
