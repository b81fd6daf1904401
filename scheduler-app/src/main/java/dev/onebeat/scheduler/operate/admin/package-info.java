/**
 * What operators change at run time, and the record of it: pausing, resuming and triggering jobs,
 * creating, changing and deleting runtime jobs and rescheduling defined ones, retrying and discarding
 * tasks; and what they read to decide: the schedule preview, tasks, job locks, the audit log.
 * Every change is written to the audit log ({@code onebeat_audit}) in the same transaction as the
 * change itself, so a change that rolls back leaves no audit row and an audit row always stands for
 * a committed change.
 */
package dev.onebeat.scheduler.operate.admin;
