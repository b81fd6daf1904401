/**
 * Named calendars: sets of days and weekly windows in a zone, defined in configuration ({@code onebeat.calendars})
 * or through the admin API ({@code onebeat_calendar}), that a job fires inside or never fires inside
 * ({@link dev.onebeat.job.CalendarPolicy}). {@link dev.onebeat.scheduler.engine.calendar.Calendars} says whether an
 * instant of a job is left out and why; the fire path records it skipped, the monitor and the instants API judge
 * it so.
 */
package dev.onebeat.scheduler.engine.calendar;
