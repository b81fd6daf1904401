package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.Missed;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Works out what a schedule's fire settles besides its own instant ({@link Missed}): after a misfire, the
 * instants missed since the trigger last fired ({@link TimetableTrigger#missedSince}); on any fire of a
 * cron under {@code gap=skip}, the wall-clock times a daylight-saving gap removes before its next instant. Those
 * are known from the zone's rules, so they are recorded as skipped by the fire before them rather than a
 * period after them (a day, for a daily job).
 */
final class MissedInstants {

    /** The most recent missed instants recorded one by one; older ones are only counted and logged. */
    static final int MAX_RECORDED = 1000;
    /** Missed instants older than this before the fire are neither recorded nor counted. */
    static final Duration MAX_LOOKBACK = Duration.ofDays(31);
    private static final int CHUNK = 10_000;
    /** How far a cron that never fires again is searched for times skipped in a gap. */
    private static final Duration GAP_LOOKAHEAD = Duration.ofDays(400);

    private MissedInstants() {
    }

    /**
     * @param trigger the schedule's trigger as stored (or as Quartz fired it)
     * @param quartzTime the time Quartz fired it at (for a recovery, the interrupted fire's time)
     * @param scheduledAt the instant the fire stands for
     */
    static Missed of(TimetableTrigger trigger, Instant quartzTime, Instant scheduledAt) {
        Timetable timetable = trigger.timetable();
        Instant from = trigger.missedSince(quartzTime);
        if (from != null) {
            return afterMisfire(timetable, from, quartzTime, scheduledAt);
        }
        if (!trigger.skipsGaps()) {
            return Missed.NONE;
        }
        ScheduledInstant next = timetable.next(scheduledAt);
        Instant until = next == null ? scheduledAt.plus(GAP_LOOKAHEAD) : next.at();
        List<ScheduledInstant> skipped = timetable.between(scheduledAt.plusNanos(1), until, MAX_RECORDED).stream()
                .filter(instant -> !instant.fires()).toList();
        return skipped.isEmpty() ? Missed.NONE : new Missed(skipped, false, false, 0);
    }

    private static Missed afterMisfire(Timetable timetable, Instant from, Instant quartzTime, Instant scheduledAt) {
        Instant start = from.isBefore(scheduledAt.minus(MAX_LOOKBACK)) ? scheduledAt.minus(MAX_LOOKBACK) : from;
        Deque<ScheduledInstant> recent = new ArrayDeque<>();
        long total = 0;
        while (start.isBefore(scheduledAt)) {
            List<ScheduledInstant> chunk = timetable.between(start, scheduledAt, CHUNK);
            for (ScheduledInstant instant : chunk) {
                total++;
                recent.addLast(instant);
                if (recent.size() > MAX_RECORDED) {
                    recent.removeFirst();
                }
            }
            if (chunk.size() < CHUNK) {
                break;
            }
            start = chunk.get(chunk.size() - 1).at().plusNanos(1);
        }
        return new Missed(new ArrayList<>(recent), true, scheduledAt.isBefore(quartzTime), total - recent.size());
    }
}
