/**
 * The replica's connections to PostgreSQL through a failover: the pool evicts a connection that answers read-only
 * (a demoted writer) so that new ones reach the new primary. The timeouts themselves are driver and server settings
 * in {@code application.yaml}.
 */
package dev.onebeat.scheduler.boot.database;
