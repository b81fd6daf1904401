/**
 * The fire path: cluster lock, then one transaction holding the ledger row, the job's work and its
 * dispatched tasks. Every way a job can fire goes through {@link dev.onebeat.scheduler.fire.FirePath}.
 */
package dev.onebeat.scheduler.fire;
