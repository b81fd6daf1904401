package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.Schedule;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** An interval's instants: the multiples of its length in seconds since the epoch, in any zone. */
final class IntervalTimetable implements Timetable {

    private final long seconds;
    private final ZoneId displayZone;

    IntervalTimetable(Schedule.Interval interval) {
        this.seconds = interval.interval().getSeconds();
        this.displayZone = interval.zone();
    }

    @Override
    public ScheduledInstant next(Instant after) {
        long multiple = Math.floorDiv(after.getEpochSecond(), seconds) * seconds + seconds;
        return instant(multiple);
    }

    @Override
    public Instant latestAtOrBefore(Instant at) {
        Instant latest = Instant.ofEpochSecond(Math.floorDiv(at.getEpochSecond(), seconds) * seconds);
        // the same look-back as a cron's, so that null means the same for every schedule
        return latest.isBefore(at.minus(MAX_LOOKBACK)) ? null : latest;
    }

    @Override
    public List<ScheduledInstant> between(Instant from, Instant to, int limit) {
        List<ScheduledInstant> instants = new ArrayList<>();
        long first = Math.floorDiv(from.getEpochSecond() + seconds - 1, seconds) * seconds;
        if (from.getNano() > 0 && first == from.getEpochSecond()) {
            first += seconds;
        }
        for (long at = first; at < to.getEpochSecond() || (at == to.getEpochSecond() && to.getNano() > 0); at += seconds) {
            if (instants.size() == limit) {
                break;
            }
            instants.add(instant(at));
        }
        return instants;
    }

    private ScheduledInstant instant(long epochSecond) {
        Instant at = Instant.ofEpochSecond(epochSecond);
        ZoneOffset offset = displayZone.getRules().getOffset(at);
        return ScheduledInstant.regular(at, LocalDateTime.ofInstant(at, offset), offset);
    }
}
