/**
 * The fire engine. A job fires alone through {@link dev.onebeat.scheduler.engine.fire.FirePath} (cluster lock,
 * then one transaction holding the ledger row, the job's work and its dispatched tasks), or with the
 * other jobs of its schedule through {@link dev.onebeat.scheduler.engine.fire.BatchFire} (the same, for many jobs
 * in one transaction); {@link dev.onebeat.scheduler.engine.fire.ScheduleFire} fires one instant of a schedule.
 */
package dev.onebeat.scheduler.engine.fire;
