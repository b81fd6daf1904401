/**
 * The onebeat scheduler application. Features live in sub-packages: {@code registry} (where jobs
 * come from and how they reach Quartz), {@code fire} (the one fire path), {@code outbox} (task
 * rows), {@code cluster} (Quartz cluster, clock check), {@code embedded} (the embedded database),
 * {@code api} (read-only REST) and {@code demo}.
 */
package dev.onebeat.scheduler;
