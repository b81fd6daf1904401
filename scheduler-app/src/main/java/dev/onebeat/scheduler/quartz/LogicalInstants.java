package dev.onebeat.scheduler.quartz;

import dev.onebeat.scheduler.schedule.Timetable;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Maps the time Quartz fired a schedule's trigger to the instant the fire stands for. An on-time fire
 * maps to itself. A "fire once now" misfire is fired by Quartz at the current time; it maps to the
 * latest instant of the schedule before that, so its keys are those an on-time fire would have had.
 */
final class LogicalInstants {

    private LogicalInstants() {
    }

    /**
     * @return the latest instant of {@code timetable} at or before {@code quartzTime}, looking back at most
     *         {@link Timetable#MAX_LOOKBACK}; {@code quartzTime} itself if there is none that recent
     */
    static Instant of(Timetable timetable, Instant quartzTime) {
        Instant latest = timetable.latestAtOrBefore(quartzTime.truncatedTo(ChronoUnit.SECONDS));
        return latest == null ? quartzTime : latest;
    }
}
