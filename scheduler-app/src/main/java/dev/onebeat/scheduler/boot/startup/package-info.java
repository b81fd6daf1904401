/**
 * Start-up while the database is briefly away (sessions killed, a restart, a failover): each start-up step that
 * needs the database waits and tries again, with a bounded backoff, until {@code onebeat.startup.database-timeout}.
 */
package dev.onebeat.scheduler.boot.startup;
