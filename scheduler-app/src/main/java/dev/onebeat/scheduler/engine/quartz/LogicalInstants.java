package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Maps the time Quartz fired a schedule's trigger to the instant the fire stands for. An on-time fire,
 * {@link TimetableTrigger#LEAD} before its instant, maps to that instant. A "fire once now" misfire is
 * fired by Quartz at the current time; it maps to the latest instant of the schedule up to that time +
 * the lead, so its keys are those an on-time fire would have had.
 */
final class LogicalInstants {

    private LogicalInstants() {
    }

    /** @return the instant a fire of a {@link TimetableTrigger} at {@code fireTime} stands for */
    static Instant ofFireTime(Timetable timetable, Instant fireTime) {
        Instant latest = latest(timetable, fireTime.plus(TimetableTrigger.LEAD));
        return latest == null ? fireTime : latest;
    }

    /**
     * @return the latest instant of {@code timetable} at or before {@code quartzTime}, looking back at most
     *         {@link Timetable#MAX_LOOKBACK}; {@code quartzTime} itself if there is none that recent
     */
    static Instant of(Timetable timetable, Instant quartzTime) {
        Instant latest = latest(timetable, quartzTime);
        return latest == null ? quartzTime : latest;
    }

    private static Instant latest(Timetable timetable, Instant time) {
        return timetable.latestAtOrBefore(time.truncatedTo(ChronoUnit.SECONDS));
    }
}
