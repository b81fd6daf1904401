/**
 * Where jobs come from: Spring beans, {@link java.util.ServiceLoader} providers (class path or the
 * {@code jobs/} folder) and declarative {@code onebeat.jobs[]} entries, validated into one
 * {@link dev.onebeat.scheduler.engine.registry.JobRegistry}; jobs and schedules stored at run time through
 * the admin API ({@link dev.onebeat.scheduler.engine.registry.RuntimeJobStore}), laid over it on every replica;
 * and the cluster's job catalog ({@link dev.onebeat.scheduler.engine.registry.JobCatalog}): the schedule each job
 * fires on, its pause, whether it is orphaned.
 */
package dev.onebeat.scheduler.engine.registry;
