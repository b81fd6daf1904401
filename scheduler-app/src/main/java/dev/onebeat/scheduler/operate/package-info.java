/**
 * The operate layer: what operators do and watch. Admin operations and the audit log ({@code admin}),
 * backfills ({@code backfill}), the missed-fire monitor ({@code monitor}), alerts ({@code alert}) and
 * retention ({@code retention}). It acts through the engine's classes, never on the engine's tables.
 */
package dev.onebeat.scheduler.operate;
