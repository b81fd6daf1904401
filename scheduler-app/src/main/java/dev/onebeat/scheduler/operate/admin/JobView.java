package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.AlertPolicy;
import dev.onebeat.job.CalendarPolicy;
import java.time.Duration;
import java.time.Instant;

/**
 * A job as the API and the console show it: what this replica registers, overlaid with the Quartz
 * trigger the whole cluster shares.
 *
 * @param name job name
 * @param schedule the schedule as written ({@code 0 8 * * MON-FRI}, {@code every 10s})
 * @param quartzSchedule what Quartz runs ({@code cron 0 0 8 ? * MON-FRI Europe/Paris})
 * @param zone the schedule's zone
 * @param misfirePolicy what happens to missed instants
 * @param gap for a cron, what a wall-clock time in a daylight-saving gap does ({@code shift}, {@code skip}); null
 *            for an interval or a job not registered here
 * @param overlap for a cron, what a wall-clock time in an overlap does ({@code first}, {@code last}, {@code both})
 * @param nextFire next scheduled instant, or null when paused or finished
 * @param previousFire last instant Quartz fired
 * @param paused whether its trigger is paused
 * @param registered whether this replica registers the job (an unregistered job is paused, never deleted)
 * @param origin where it is defined ({@code onebeat.jobs[2]}, {@code bean 'x'}, {@code runtime job},
 *               with {@code , rescheduled at run time} when a stored schedule replaces the defined one);
 *               null when not registered here
 * @param runtime whether it is a runtime job, which may be changed freely and deleted
 * @param pauseReason why an operator paused it, or null
 * @param pausedUntil when its pause ends by itself, or null
 * @param retryAttempts tries of an instant whose fire failed, the first included; null when not registered here
 * @param catchUpWindow how old an instant may be and still get an attempt; null when not registered here
 * @param maxCatchUp how many missed instants {@code FIRE_ALL_MISSED} fires after an outage; null when not
 *                   registered here
 * @param overlapPolicy what an instant due while the job's previous fire runs does ({@code SKIP},
 *                      {@code BUFFER_ONE}, {@code ALLOW}); null when not registered here
 * @param alerts when an instant of it is missed and where its events go; null when not registered here
 * @param jitter how far past each instant its fire may move, a different offset at each; null when not registered
 *               here
 * @param spread the window its schedule's members fire over, each at its own fixed offset; null when not
 *               registered here
 * @param calendars the calendars it fires inside or never inside, and its active period; null when not registered
 * @param namespace the namespace it belongs to
 * @param appliedFrom the job file a runtime job was last applied from, null if none
 * @param drifted whether it was changed by hand (the API, the console) since it was applied
 *                  here
 */
public record JobView(String name, String schedule, String quartzSchedule, String zone, String misfirePolicy,
                      String gap, String overlap,
                      Instant nextFire, Instant previousFire, boolean paused, boolean registered, String origin,
                      boolean runtime, String pauseReason, Instant pausedUntil, Integer retryAttempts,
                      Duration catchUpWindow, Integer maxCatchUp, String overlapPolicy, AlertPolicy alerts,
                      Duration jitter, Duration spread, CalendarPolicy calendars, String namespace,
                      String appliedFrom, boolean drifted) {
}
