/**
 * Knowing when an instant did not happen: the instants each job's schedule expected, each with its outcome
 * ({@link dev.onebeat.scheduler.operate.monitor.ExpectedInstants}); the detector that judges them on one replica at a time
 * and records missed, failed and recovered events ({@link dev.onebeat.scheduler.operate.monitor.MissedFireDetector}); and
 * the per-job metrics read from its progress.
 */
package dev.onebeat.scheduler.operate.monitor;
