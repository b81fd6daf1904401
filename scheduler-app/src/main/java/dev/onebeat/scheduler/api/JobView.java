package dev.onebeat.scheduler.api;

import java.time.Instant;

/**
 * A job as {@code GET /api/jobs} shows it.
 *
 * @param name job name
 * @param schedule the schedule as written ({@code 0 8 * * MON-FRI}, {@code every 10s})
 * @param quartzSchedule what Quartz runs ({@code cron 0 0 8 ? * MON-FRI Europe/Paris})
 * @param zone the schedule's zone
 * @param misfirePolicy what happens to missed instants
 * @param nextFire next scheduled instant, or null when paused or finished
 * @param previousFire last instant Quartz fired
 * @param paused whether its trigger is paused
 * @param registered whether this replica registers the job (an unregistered job is paused, never deleted)
 */
public record JobView(String name, String schedule, String quartzSchedule, String zone, String misfirePolicy,
                      Instant nextFire, Instant previousFire, boolean paused, boolean registered) {
}
