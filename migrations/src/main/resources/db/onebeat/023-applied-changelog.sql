--liquibase formatted sql

--changeset onebeat:023-applied-changelog
--comment: the changelog a replica last applied in full (its digest) and the state of databasechangelog right after; a replica that finds both unchanged starts without running Liquibase
CREATE TABLE onebeat_applied_changelog (
    id SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    changelog VARCHAR(500) NOT NULL,
    changelog_digest VARCHAR(64) NOT NULL,
    changesets INTEGER NOT NULL,
    changesets_digest VARCHAR(32) NOT NULL,
    applied_by VARCHAR(200) NOT NULL,
    applied_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);
--rollback DROP TABLE onebeat_applied_changelog;
