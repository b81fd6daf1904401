/**
 * The bridge to Quartz: one durable Quartz job and trigger per onebeat job (group
 * {@value dev.onebeat.scheduler.quartz.QuartzTriggers#GROUP}), kept in sync with the registry at
 * start-up, and the Quartz job class that hands each fire to the fire path.
 */
package dev.onebeat.scheduler.quartz;
