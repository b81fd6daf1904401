package dev.onebeat.scheduler.engine.schedule;

import java.text.ParseException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.quartz.CronExpression;

/**
 * A Quartz cron whose day-of-month field names a nearest weekday ({@code 15W}, {@code LW}, {@code L-3W},
 * alone or in a list with plain days such as {@code 1W,15}), as a calendar of wall-clock times.
 *
 * <p>Why onebeat computes these days itself: Quartz 2.5.2's own {@code W} handling contradicts its
 * documentation and depends on where the search starts (quartz#1444, #1392). Given a start ending in
 * {@code .999} ms it skips a whole month; a {@code W} day moved to a Monday fires only its first time
 * of day; asked on the nominal Sunday it skips the Monday; it carries the time of day of the search
 * start into the moved day. The documented meaning, which onebeat follows:
 * <ul>
 *   <li>{@code nW} is the weekday (Monday to Friday) nearest to day {@code n} of the month, and never in
 *       another month: {@code n} itself on a weekday; on a Saturday the Friday before, except that
 *       {@code 1W} on a Saturday is Monday the 3rd; on a Sunday the Monday after, except that on the
 *       month's last day it is the Friday before. A month without day {@code n} ({@code 31W} in April)
 *       has no such day.</li>
 *   <li>{@code LW} is the month's last weekday; {@code L-kW} the weekday nearest to {@code k} days before
 *       the month's last day, by the same rule (none when that is before the 1st).</li>
 *   <li>the other fields (second, minute, hour, month, year) apply normally: on each day selected, every
 *       time of day the cron's time fields match fires.</li>
 * </ul>
 * Only the selection of days is onebeat's: which months and years are allowed, which plain days of
 * the list match, and which times of day match are Quartz's answers to expressions without {@code W}
 * (each asked with whole seconds, in UTC, where it has no daylight saving), which it gets right.
 */
final class NearestWeekdayCron {

    /** {@code 15W}, {@code LW}, {@code L-3W}; what Quartz accepts after the {@code W} is refused here. */
    private static final Pattern ITEM = Pattern.compile("(?:(\\d+)|L(?:-(\\d+))?)W");
    private static final int MAX_LAST_DAY_OFFSET = 30;

    /** The days {@code n} of the {@code nW} items. */
    private final BitSet days = new BitSet(32);
    /** The offsets {@code k} of the {@code LW} (0) and {@code L-kW} items. */
    private final BitSet lastDayOffsets = new BitSet(MAX_LAST_DAY_OFFSET + 1);
    /** The first second of each month and year the cron allows. */
    private final CronExpression months;
    /** The plain items of the day-of-month list ({@code 15}, {@code L}, {@code 1-5}), null without any. */
    private final CronExpression plainDays;
    /** The times of day, on every day. */
    private final CronExpression timesOfDay;
    /** The first of them: what a day after the one asked about fires at first. */
    private final LocalTime firstTimeOfDay;
    /** The month asked about last, whose answer the next question most likely needs again. */
    private volatile MonthDays lastMonth;

    /**
     * @param fields the expression's fields (6 or 7), which Quartz has already accepted, in upper case
     * @throws IllegalArgumentException if an item of the day-of-month field with a {@code W} is not of
     *         the form {@code nW} (n from 1 to 31), {@code LW} or {@code L-kW} (k up to 30)
     */
    NearestWeekdayCron(String[] fields) {
        List<String> plain = new ArrayList<>();
        for (String item : fields[3].split(",")) {
            if (item.indexOf('W') < 0) {
                plain.add(item);
                continue;
            }
            Matcher matcher = ITEM.matcher(item);
            if (!matcher.matches()) {
                throw new IllegalArgumentException("day-of-month item '" + item + "' is not nW, LW or L-nW");
            }
            if (matcher.group(1) != null) {
                int day = Integer.parseInt(matcher.group(1));
                if (day < 1 || day > 31) {
                    throw new IllegalArgumentException("day-of-month item '" + item + "' names day " + day
                            + "; nW takes a day from 1 to 31");
                }
                days.set(day);
            } else {
                int offset = matcher.group(2) == null ? 0 : Integer.parseInt(matcher.group(2));
                if (offset > MAX_LAST_DAY_OFFSET) {
                    throw new IllegalArgumentException("day-of-month item '" + item + "' is " + offset
                            + " days before the last; L-nW takes at most " + MAX_LAST_DAY_OFFSET);
                }
                lastDayOffsets.set(offset);
            }
        }
        String year = fields.length > 6 ? " " + fields[6] : "";
        this.months = utc("0 0 0 1 " + fields[4] + " ?" + year);
        this.plainDays = plain.isEmpty() ? null : utc("0 0 0 " + String.join(",", plain) + " * ?");
        this.timesOfDay = utc(fields[0] + " " + fields[1] + " " + fields[2] + " * * ?");
        // every day has the same times: the first of 1 January 1970 is the first of any day
        this.firstTimeOfDay = next(timesOfDay, LocalDateTime.of(1970, 1, 1, 0, 0).minusSeconds(1)).toLocalTime();
    }

    /** @return whether the day-of-month field (upper case) names a nearest weekday */
    static boolean names(String dayOfMonth) {
        return dayOfMonth.indexOf('W') >= 0;
    }

    /**
     * The documented meaning of Quartz's {@code W}, the one rule every {@code W} form follows here.
     *
     * @param month a month
     * @param day a day number, which the month may not have ({@code 31} in April, {@code 0} or less)
     * @return the day of {@code month}, Monday to Friday, nearest to {@code day} without leaving the
     *     month; 0 if the month has no day {@code day}
     */
    static int nearestWeekday(YearMonth month, int day) {
        if (day < 1 || day > month.lengthOfMonth()) {
            return 0;
        }
        DayOfWeek dayOfWeek = month.atDay(day).getDayOfWeek();
        if (dayOfWeek == DayOfWeek.SATURDAY) {
            // Friday is a day nearer than Monday, unless Friday is in the month before
            return day == 1 ? 3 : day - 1;
        }
        if (dayOfWeek == DayOfWeek.SUNDAY) {
            // Monday is a day nearer than Friday, unless Monday is in the month after
            return day == month.lengthOfMonth() ? day - 2 : day + 1;
        }
        return day;
    }

    /**
     * @param after a wall-clock time, a whole second
     * @return the first wall-clock time strictly after it that the cron matches, or null if none up to
     *     Quartz's last year; for a time before 1970, the first match from 1970 on
     */
    LocalDateTime next(LocalDateTime after) {
        LocalDate afterDay = after.toLocalDate();
        YearMonth month = YearMonth.from(afterDay);
        while (true) {
            MonthDays allowed = monthFrom(month);
            if (allowed.month() == null) {
                return null;
            }
            month = allowed.month();
            for (int day = allowed.days().nextSetBit(1); day > 0; day = allowed.days().nextSetBit(day + 1)) {
                LocalDate date = month.atDay(day);
                if (date.isAfter(afterDay)) {
                    return date.atTime(firstTimeOfDay);
                }
                if (date.equals(afterDay)) {
                    LocalDateTime time = next(timesOfDay, after);
                    if (time != null && time.toLocalDate().equals(date)) {
                        return time;
                    }
                }
            }
            month = month.plusMonths(1);
        }
    }

    /** @return the first month from {@code from} on that the cron allows, with its days; a null month if none */
    private MonthDays monthFrom(YearMonth from) {
        MonthDays last = lastMonth;
        if (last != null && last.askedFrom().equals(from)) {
            return last;
        }
        LocalDateTime allowed = next(months, from.atDay(1).atStartOfDay().minusSeconds(1));
        YearMonth month = allowed == null ? null : YearMonth.from(allowed);
        MonthDays found = new MonthDays(from, month, month == null ? new BitSet() : selectedDays(month));
        lastMonth = found;
        return found;
    }

    /** @return the days of {@code month} the day-of-month field selects */
    private BitSet selectedDays(YearMonth month) {
        BitSet selected = new BitSet(32);
        for (int day = days.nextSetBit(1); day > 0; day = days.nextSetBit(day + 1)) {
            selected.set(nearestWeekday(month, day));
        }
        for (int offset = lastDayOffsets.nextSetBit(0); offset >= 0; offset = lastDayOffsets.nextSetBit(offset + 1)) {
            selected.set(nearestWeekday(month, month.lengthOfMonth() - offset));
        }
        // day 0 stands for "none in this month"
        selected.clear(0);
        if (plainDays != null) {
            LocalDateTime first = month.atDay(1).atStartOfDay();
            for (LocalDateTime day = next(plainDays, first.minusSeconds(1));
                 day != null && YearMonth.from(day).equals(month); day = next(plainDays, day)) {
                selected.set(day.getDayOfMonth());
            }
        }
        return selected;
    }

    /**
     * @param askedFrom a month
     * @param month the first month from it on that the cron allows, null if none
     * @param days the days of {@code month} the day-of-month field selects; never changed
     */
    private record MonthDays(YearMonth askedFrom, YearMonth month, BitSet days) {
    }

    /** Asks Quartz, in UTC, with a whole second (never a date ending in .999 ms). */
    private static LocalDateTime next(CronExpression expression, LocalDateTime after) {
        Date next = expression.getTimeAfter(new Date(after.toEpochSecond(ZoneOffset.UTC) * 1000));
        return next == null ? null : LocalDateTime.ofEpochSecond(next.getTime() / 1000, 0, ZoneOffset.UTC);
    }

    private static CronExpression utc(String expression) {
        try {
            CronExpression parsed = new CronExpression(expression.toUpperCase(Locale.ROOT));
            parsed.setTimeZone(TimeZone.getTimeZone(ZoneOffset.UTC));
            return parsed;
        } catch (ParseException e) {
            // the fields come from an expression Quartz has accepted
            throw new IllegalStateException("Quartz refuses '" + expression + "', a part of a cron it accepted", e);
        }
    }
}
