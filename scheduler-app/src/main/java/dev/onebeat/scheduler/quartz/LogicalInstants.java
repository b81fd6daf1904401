package dev.onebeat.scheduler.quartz;

import dev.onebeat.job.Schedule;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.TimeZone;
import org.quartz.CronExpression;

/**
 * Maps the time Quartz fired a trigger to the schedule instant the fire stands for. On-time fires
 * map to themselves. A "fire once now" misfire is fired by Quartz at the current time; it maps to
 * the most recent scheduled instant before that, so its keys are those an on-time fire would have had.
 */
final class LogicalInstants {

    private static final Duration FIRST_LOOKBACK = Duration.ofMinutes(1);
    private static final Duration MAX_LOOKBACK = Duration.ofDays(800);

    private LogicalInstants() {
    }

    static Instant of(Schedule schedule, Instant quartzTime) {
        if (schedule instanceof Schedule.Interval interval) {
            long seconds = interval.interval().getSeconds();
            long epochSecond = quartzTime.getEpochSecond();
            return Instant.ofEpochSecond(epochSecond - Math.floorMod(epochSecond, seconds));
        }
        Schedule.Cron cron = (Schedule.Cron) schedule;
        return latestCronInstant(expression(cron), quartzTime.truncatedTo(ChronoUnit.SECONDS), quartzTime);
    }

    private static Instant latestCronInstant(CronExpression cron, Instant atOrBefore, Instant fallback) {
        if (cron.isSatisfiedBy(Date.from(atOrBefore))) {
            return atOrBefore;
        }
        for (Duration lookback = FIRST_LOOKBACK; lookback.compareTo(MAX_LOOKBACK) <= 0; lookback = lookback.multipliedBy(8)) {
            Date latest = null;
            Date next = cron.getTimeAfter(Date.from(atOrBefore.minus(lookback)));
            while (next != null && !next.toInstant().isAfter(atOrBefore)) {
                latest = next;
                next = cron.getTimeAfter(next);
            }
            if (latest != null) {
                return latest.toInstant();
            }
        }
        return fallback;
    }

    private static CronExpression expression(Schedule.Cron cron) {
        try {
            CronExpression expression = new CronExpression(cron.quartzExpression());
            expression.setTimeZone(TimeZone.getTimeZone(cron.zone()));
            return expression;
        } catch (ParseException e) {
            throw new IllegalStateException("registered cron no longer parses: " + cron.quartzExpression(), e);
        }
    }
}
