/**
 * The replica's place in the cluster: Quartz's clustered job store with a shorter failure grace, judging peers by
 * the database's stamps of their check-ins; the database's clock as the
 * cluster's one time (fires wait for it, and a replica whose clock is off beyond the maximum holds its firing); the
 * record of each replica's time-zone data (and the warning when live replicas differ), and cluster state queries.
 */
package dev.onebeat.scheduler.engine.cluster;
