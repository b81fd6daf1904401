/**
 * Where onebeat may send requests whose address an API user set (a runtime job's Healthchecks ping URL):
 * public addresses, and the hosts and networks {@code onebeat.security.outbound.*} allows.
 */
package dev.onebeat.scheduler.boot.outbound;
