/**
 * The onebeat scheduler application, in four layers; each may use the layers below it and never one above
 * (the architecture tests hold this):
 *
 * <ol>
 *   <li>{@code web}: the REST API, the console and security;</li>
 *   <li>{@code operate}: what operators do and watch: admin operations and the audit log, backfills, the
 *       missed-fire monitor, alerts, retention; through the engine's classes only;</li>
 *   <li>{@code engine}: the scheduling itself: schedules, the job registry, the fire path and its ledger,
 *       the outbox and its relay, the Quartz bridge, the cluster's shared view (nodes, clocks, database
 *       server);</li>
 *   <li>{@code boot}: what starts the process and connects it: database connections, start-up waits,
 *       migrations, the embedded database, outbound network policy, the demo.</li>
 * </ol>
 */
package dev.onebeat.scheduler;
