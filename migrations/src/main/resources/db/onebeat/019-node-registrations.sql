--liquibase formatted sql

--changeset onebeat:019-node-registrations
--comment: the jobs each replica registers, so that a job is orphaned only when no replica alive now (its Quartz checked in within two check-in intervals, in database time) registers it, whichever replica started last
CREATE TABLE onebeat_node_job (
    instance_id VARCHAR(200) NOT NULL,
    job_name    VARCHAR(150) NOT NULL,
    PRIMARY KEY (job_name, instance_id)
);
-- a replica replaces its own rows at start-up
CREATE INDEX onebeat_node_job_instance_idx ON onebeat_node_job (instance_id);
--rollback DROP TABLE onebeat_node_job;
