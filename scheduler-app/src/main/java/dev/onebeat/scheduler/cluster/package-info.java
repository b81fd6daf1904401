/**
 * The replica's place in the cluster: Quartz's clustered job store with a shorter failure grace,
 * the ShedLock provider on database time, the clock-skew check, and cluster state queries.
 */
package dev.onebeat.scheduler.cluster;
