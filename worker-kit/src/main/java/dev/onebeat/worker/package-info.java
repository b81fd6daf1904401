/**
 * The onebeat worker kit: plain Java and JDBC that make a redelivered task harmless on the consumer
 * side. Features live in sub-packages: {@code queue} (the in-database queue worker), {@code journal}
 * (process-once, compound steps, the Redis fast filter), {@code throttle}, {@code effect} (the
 * side-effect outbox and its sender), {@code retention} and {@code metrics}.
 */
package dev.onebeat.worker;
