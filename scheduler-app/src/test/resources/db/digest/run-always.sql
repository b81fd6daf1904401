--liquibase formatted sql

--changeset test:digest-always runAlways:true
SELECT 1;
