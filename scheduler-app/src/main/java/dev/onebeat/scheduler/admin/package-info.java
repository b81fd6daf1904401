/**
 * What operators change at run time, and the record of it: pausing, resuming and triggering jobs,
 * retrying and discarding tasks, the schedule preview. Every change is written to the audit log
 * ({@code onebeat_audit}) in the same transaction as the change itself, so a change that rolls back
 * leaves no audit row and an audit row always stands for a committed change.
 */
package dev.onebeat.scheduler.admin;
