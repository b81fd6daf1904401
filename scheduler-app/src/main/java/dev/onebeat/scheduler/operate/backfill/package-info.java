/**
 * Backfills: an operator's request to fire a job for a range of past instants, stored
 * ({@code onebeat_backfill}), run in the background by one replica at a time and resumed after a restart.
 */
package dev.onebeat.scheduler.operate.backfill;
