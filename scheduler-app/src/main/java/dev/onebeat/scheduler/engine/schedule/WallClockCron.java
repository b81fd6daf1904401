package dev.onebeat.scheduler.engine.schedule;

import java.text.ParseException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;
import org.quartz.CronExpression;

/**
 * A Quartz cron expression read as a calendar of wall-clock times, with no zone at all.
 *
 * <p>Quartz's own {@link CronExpression} parses every Quartz form and matches all but one ({@code L},
 * {@code #}, years); evaluated in UTC, which has no daylight saving, its next time is exactly the
 * next wall-clock date-time the fields match. The exception is a day of month with {@code W}
 * ({@code 15W}, {@code LW}), whose days {@link NearestWeekdayCron} computes as Quartz documents them,
 * because Quartz's own answer is wrong and depends on where the search starts. Turning wall-clock times into instants is left to
 * {@link CronTimetable}, which applies the zone's rules. Quartz's expression is safe for concurrent
 * matching once parsed (each call works on its own calendar; the parsed field sets are only read).
 *
 * <p>Quartz's calendar covers the years from 1970 to {@link CronExpression#MAX_YEAR}, a hundred years
 * after the year the class was loaded in: asked about an earlier time, it answers with the first
 * match in 1970; past the last year it answers none.
 */
final class WallClockCron {

    private final CronExpression expression;
    /** The days of a day-of-month field with {@code W}, null for any other. */
    private final NearestWeekdayCron nearestWeekday;
    private final boolean elapsed;

    WallClockCron(String quartzExpression) {
        try {
            this.expression = new CronExpression(quartzExpression);
        } catch (ParseException e) {
            throw new IllegalArgumentException("'" + quartzExpression + "' is not a valid Quartz cron expression: "
                    + e.getMessage(), e);
        }
        expression.setTimeZone(TimeZone.getTimeZone(ZoneOffset.UTC));
        String[] fields = quartzExpression.trim().toUpperCase(Locale.ROOT).split("\\s+");
        try {
            this.nearestWeekday = NearestWeekdayCron.names(fields[3]) ? new NearestWeekdayCron(fields) : null;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + quartzExpression + "' is not a valid Quartz cron expression: "
                    + e.getMessage(), e);
        }
        this.elapsed = everyValue(fields[1], 60) || everyValue(fields[2], 24);
    }

    /**
     * @param after a wall-clock time
     * @return the first wall-clock time strictly after it that the fields match, or null if none up to
     *         Quartz's last year; for a time before 1970, the first match from 1970 on
     */
    LocalDateTime next(LocalDateTime after) {
        // the fields match whole seconds: the first match after a time is the first after its whole second;
        // Quartz is never given a date ending in .999 ms (its W days skip a month on one)
        LocalDateTime second = after.truncatedTo(ChronoUnit.SECONDS);
        if (nearestWeekday != null) {
            return nearestWeekday.next(second);
        }
        Date next = expression.getTimeAfter(Date.from(second.toInstant(ZoneOffset.UTC)));
        return next == null ? null : LocalDateTime.ofEpochSecond(next.getTime() / 1000, 0, ZoneOffset.UTC);
    }

    /**
     * @return whether the minute or the hour field takes every value ({@code *}, {@code *}{@code /1},
     *         {@code 0-59}): such a cron counts elapsed time and fires in both occurrences of an overlap
     */
    boolean countsElapsedTime() {
        return elapsed;
    }

    /**
     * Reads a minute or hour field that Quartz has already accepted: a list of {@code *}, values,
     * ranges (wrapping round when they end before they start, as in Quartz) and steps ({@code a/n},
     * {@code a-b/n}, {@code *}{@code /n}).
     */
    private static boolean everyValue(String field, int values) {
        BitSet covered = new BitSet(values);
        for (String element : field.split(",")) {
            int slash = element.indexOf('/');
            String range = slash < 0 ? element : element.substring(0, slash);
            int step = slash < 0 ? 1 : Integer.parseInt(element.substring(slash + 1));
            int from;
            int to;
            if (range.equals("*")) {
                from = 0;
                to = values - 1;
            } else if (range.contains("-")) {
                from = Integer.parseInt(range.substring(0, range.indexOf('-')));
                to = Integer.parseInt(range.substring(range.indexOf('-') + 1));
                if (to < from) {
                    // Quartz reads a range that ends before it starts as wrapping round: 22-2 is 22, 23, 0, 1, 2
                    to += values;
                }
            } else {
                from = Integer.parseInt(range);
                to = slash < 0 ? from : values - 1;
            }
            for (int value = from; value <= to; value += step) {
                covered.set(value % values);
            }
        }
        return covered.cardinality() == values;
    }
}
