/**
 * The schedule model: the exact instants a {@link dev.onebeat.job.Schedule} fires at, computed by
 * onebeat with {@code java.time}'s zone rules and the schedule's
 * {@link dev.onebeat.job.DstPolicy}. Quartz is told these instants; it is the clustered timer, not
 * the calendar. The preview, the console and the fire path all read them from
 * {@link dev.onebeat.scheduler.engine.schedule.Timetable}.
 */
package dev.onebeat.scheduler.engine.schedule;
