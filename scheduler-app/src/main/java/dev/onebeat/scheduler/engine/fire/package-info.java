/**
 * The fire engine. A job fires alone through {@link dev.onebeat.scheduler.engine.fire.FirePath} (cluster lock,
 * then one transaction holding the ledger row, the job's work and its dispatched tasks), or with the
 * other jobs of its schedule through {@link dev.onebeat.scheduler.engine.fire.BatchFire} (the same, for many jobs
 * in one transaction); {@link dev.onebeat.scheduler.engine.fire.ScheduleFire} fires one instant of a schedule.
 *
 * <p>The package owns the ledger and the lock rows: every statement on {@code onebeat_fire},
 * {@code onebeat_fire_attempt}, {@code onebeat_fire_horizon} and {@code onebeat_retention_walk} is in
 * {@code FireLedger}, {@code FireRecord}, {@code FireAttempts}, {@code FireHorizon} (what retention does) or
 * {@code InstantRecords} (what operators read);
 * on {@code onebeat_fire_fault} in {@code FireFaults}; on {@code shedlock} in {@code JobLockTable} and ShedLock's
 * provider, configured with its table. Other layers call them.
 */
package dev.onebeat.scheduler.engine.fire;
