/**
 * The API onebeat jobs are written against: plain Java, no framework.
 *
 * <p>A {@link dev.onebeat.job.PeriodicJob} has a name, a {@link dev.onebeat.job.Schedule}, a
 * {@link dev.onebeat.job.MisfirePolicy} and a lock duration. onebeat runs it at most once per
 * scheduled instant across any number of replicas and hands it a {@link dev.onebeat.job.JobContext}:
 * the logical scheduled instant, the JDBC connection of the fire's transaction, and
 * {@link dev.onebeat.job.JobContext#dispatch(TaskRequest)}, which writes a task under a deterministic
 * {@link dev.onebeat.job.IdempotencyKey} into the outbox of that same transaction.
 */
package dev.onebeat.job;
