--liquibase formatted sql

--changeset onebeat:demo-001-customers
CREATE TABLE onebeat_demo_customer (
    id    BIGINT PRIMARY KEY,
    email VARCHAR(255) NOT NULL
);
INSERT INTO onebeat_demo_customer (id, email) VALUES
    (1, 'ada@example.com'), (2, 'grace@example.com'), (3, 'edsger@example.com'),
    (4, 'barbara@example.com'), (5, 'ken@example.com');
--rollback DROP TABLE onebeat_demo_customer;
