package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The exact instants of a schedule. Every replica computes the same instants from the same schedule
 * and the same time-zone data. Implementations are immutable and safe for concurrent use.
 *
 * <p>A cron's wall-clock times are those of Quartz's calendar, from 1970 to a hundred years after the
 * year the process started in: its instants before 1970 are not computed (a question about them is
 * answered from 1970 on), and it fires no more after that last year. The days of a day-of-month
 * {@code W} ({@code 15W}, {@code LW}) are onebeat's own, as Quartz documents them (see
 * {@code NearestWeekdayCron}); each answer is the same whatever instant the question starts from.
 */
public interface Timetable {

    /**
     * How far back {@link #latestAtOrBefore} looks. A schedule that fires less often than this (a
     * cron limited to 29 February, say) is answered with null.
     */
    Duration MAX_LOOKBACK = Duration.ofDays(800);

    /**
     * @param schedule a cron (with its zone and daylight-saving policy) or an interval
     * @return its timetable
     * @throws IllegalArgumentException if the cron expression does not parse
     */
    static Timetable of(Schedule schedule) {
        if (schedule instanceof Schedule.Interval interval) {
            return new IntervalTimetable(interval);
        }
        return new CronTimetable((Schedule.Cron) schedule);
    }

    /**
     * @param after any instant
     * @return the first instant strictly after {@code after} at which the schedule fires (a time skipped
     *         in a gap is not one), or null if it never fires again
     */
    ScheduledInstant next(Instant after);

    /**
     * @param at any instant
     * @return the latest firing instant at or before {@code at}, no more than {@link #MAX_LOOKBACK} back,
     *         or null
     */
    Instant latestAtOrBefore(Instant at);

    /**
     * @param from inclusive
     * @param to exclusive
     * @param limit at most this many, the earliest first
     * @return the schedule's instants in {@code [from, to)}, firing ones and times skipped in a gap
     *         alike, in order
     */
    List<ScheduledInstant> between(Instant from, Instant to, int limit);
}
