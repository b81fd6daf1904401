/**
 * Benchmark commands: programs that print figures, run by hand or from {@code bench/*.sh}. They are
 * test sources only so that they share the test class path; no test runner starts them and nothing
 * here asserts a timing.
 */
package dev.onebeat.scheduler.bench;
