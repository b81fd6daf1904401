/**
 * The engine: schedules ({@code schedule}), where jobs come from ({@code registry}), the one fire path and
 * its ledger ({@code fire}), task rows and their payload ({@code outbox}), publishing them ({@code relay}),
 * the bridge to Quartz's clustered job store ({@code quartz}), what the replicas share about each other
 * ({@code cluster}: nodes, clocks, tzdata, the database server) and the spans of a fire and its publishes
 * ({@code trace}). It knows nothing of operators or the web.
 */
package dev.onebeat.scheduler.engine;
