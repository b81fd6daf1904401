/**
 * The replica's place in the cluster: Quartz's clustered job store with a shorter failure grace,
 * the ShedLock provider on database time, the clock-skew check, the record of each replica's
 * time-zone data (and the warning when live replicas differ), and cluster state queries.
 */
package dev.onebeat.scheduler.cluster;
