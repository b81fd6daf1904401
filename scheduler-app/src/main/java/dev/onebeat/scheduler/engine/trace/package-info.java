/**
 * Traces of onebeat's own work, from a fire to the publish of its tasks ({@link
 * dev.onebeat.scheduler.engine.trace.Traces}): spans made with Micrometer Tracing, exported by what Spring Boot
 * configures ({@code management.tracing.*}, {@code management.opentelemetry.tracing.export.*}), off unless
 * {@code management.tracing.export.enabled=true}.
 */
package dev.onebeat.scheduler.engine.trace;
