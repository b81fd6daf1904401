/**
 * Where jobs come from: Spring beans, {@link java.util.ServiceLoader} providers (class path or the
 * {@code jobs/} folder) and declarative {@code onebeat.jobs[]} entries, validated into one
 * {@link dev.onebeat.scheduler.registry.JobRegistry}.
 */
package dev.onebeat.scheduler.registry;
