package dev.onebeat.scheduler.engine.calendar;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A window that comes back every week, in local time: days of the week, and optionally a time of day from (inclusive)
 * and to (exclusive). Written {@code MON-FRI 08:00-18:00}, {@code SAT,SUN} (whole days) or {@code FRI 22:00-06:00}
 * (a window past midnight ends on the next day).
 *
 * @param days the days it begins on
 * @param from when it begins on each of them
 * @param to when it ends: later the same day, or, when not after {@code from}, on the next day ({@code 00:00} for a
 *     whole day)
 */
public record WeeklyWindow(Set<DayOfWeek> days, LocalTime from, LocalTime to) {

    private static final Pattern TEXT = Pattern.compile("\\s*([A-Za-z,\\-]+)(?:\\s+(\\d{1,2}:\\d{2})-(\\d{1,2}:\\d{2}))?\\s*");
    private static final Pattern RANGE = Pattern.compile("([A-Za-z]{3})(?:-([A-Za-z]{3}))?");

    public WeeklyWindow {
        days = Set.copyOf(days);
        if (days.isEmpty()) {
            throw new IllegalArgumentException("a weekly window needs at least one day");
        }
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    public static WeeklyWindow parse(String text) {
        Matcher matcher = TEXT.matcher(text == null ? "" : text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a weekly window: days, then optionally a time"
                    + " range, as 'MON-FRI 08:00-18:00' or 'SAT,SUN'");
        }
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String part : matcher.group(1).split(",")) {
            Matcher range = RANGE.matcher(part.trim());
            if (!range.matches()) {
                throw new IllegalArgumentException("'" + part + "' in '" + text + "' is not a day (MON to SUN) or a"
                        + " range of days (MON-FRI)");
            }
            DayOfWeek first = day(range.group(1), text);
            DayOfWeek last = range.group(2) == null ? first : day(range.group(2), text);
            for (DayOfWeek day = first; ; day = day.plus(1)) {
                days.add(day);
                if (day == last) {
                    break;
                }
            }
        }
        if (matcher.group(2) == null) {
            return new WeeklyWindow(days, LocalTime.MIDNIGHT, LocalTime.MIDNIGHT);
        }
        LocalTime from = time(matcher.group(2), text);
        LocalTime to = matcher.group(3).equals("24:00") ? LocalTime.MIDNIGHT : time(matcher.group(3), text);
        if (from.equals(to) && !from.equals(LocalTime.MIDNIGHT)) {
            throw new IllegalArgumentException("'" + text + "' begins and ends at " + from + ": an empty window");
        }
        return new WeeklyWindow(days, from, to);
    }

    /** @return whether a wall-clock time falls in the window */
    public boolean contains(LocalDateTime local) {
        DayOfWeek day = local.getDayOfWeek();
        LocalTime time = local.toLocalTime();
        boolean pastMidnight = !to.isAfter(from);
        if (days.contains(day) && !time.isBefore(from) && (pastMidnight || time.isBefore(to))) {
            return true;
        }
        // the part after midnight of a window that began the day before
        return pastMidnight && days.contains(day.minus(1)) && time.isBefore(to);
    }

    /** @return the window as it is written: {@code MON-FRI 08:00-18:00}, {@code SAT,SUN} */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (DayOfWeek first = DayOfWeek.MONDAY; ; ) {
            while (!days.contains(first) && first != DayOfWeek.SUNDAY) {
                first = first.plus(1);
            }
            if (!days.contains(first)) {
                break;
            }
            DayOfWeek last = first;
            while (last != DayOfWeek.SUNDAY && days.contains(last.plus(1))) {
                last = last.plus(1);
            }
            // two days in a row are written as two, three or more as a range: SAT,SUN and MON-FRI
            text.append(text.isEmpty() ? "" : ",").append(abbreviation(first))
                    .append(last == first ? "" : (last == first.plus(1) ? "," : "-") + abbreviation(last));
            if (last == DayOfWeek.SUNDAY) {
                break;
            }
            first = last.plus(1);
        }
        boolean wholeDay = from.equals(LocalTime.MIDNIGHT) && to.equals(LocalTime.MIDNIGHT);
        return wholeDay ? text.toString() : text + " " + from + "-" + (to.equals(LocalTime.MIDNIGHT) ? "24:00" : to);
    }

    private static String abbreviation(DayOfWeek day) {
        return day.name().substring(0, 3);
    }

    private static DayOfWeek day(String text, String window) {
        for (DayOfWeek day : DayOfWeek.values()) {
            if (day.name().substring(0, 3).equals(text.toUpperCase(Locale.ROOT))) {
                return day;
            }
        }
        throw new IllegalArgumentException("'" + text + "' in '" + window + "' is not a day: MON, TUE, WED, THU, FRI,"
                + " SAT or SUN");
    }

    private static LocalTime time(String text, String window) {
        try {
            return LocalTime.parse(text.length() == 4 ? "0" + text : text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' in '" + window + "' is not a time of day (HH:MM)", e);
        }
    }
}
