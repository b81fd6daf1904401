/**
 * Process-once for consumers: a journal of processed keys whose insert commits in the same
 * transaction as the handler's work ({@link dev.onebeat.worker.journal.ProcessedJournal},
 * {@link dev.onebeat.worker.journal.IdempotentConsumer}), per-step entries for compound tasks
 * ({@link dev.onebeat.worker.journal.Steps}), and an optional Redis filter in front of the journal
 * ({@link dev.onebeat.worker.journal.DuplicateFilter}).
 */
package dev.onebeat.worker.journal;
