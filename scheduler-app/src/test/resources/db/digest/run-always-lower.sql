--liquibase formatted sql

--changeset test:digest-always runalways:true
SELECT 1;
