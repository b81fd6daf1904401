package dev.onebeat.scheduler.engine.calendar;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;

/**
 * A named calendar: days and weekly windows, read in its zone. An instant is inside it when its local date (in that
 * zone) is one of its dates, falls in one of its ranges or is one of its yearly dates, or when its local date and time
 * fall in one of its weekly windows. The zone's daylight-saving rules apply as they do to clocks there: on the night
 * clocks go forward in Paris, 08:00 local is 06:00Z, and the day before it was 07:00Z.
 *
 * @param name its name, which jobs refer to and skips give as their reason
 * @param zone the zone its days and times are read in
 * @param dates single days ({@code 2027-05-13})
 * @param ranges runs of days, both ends included ({@code 2027-12-24..2028-01-02})
 * @param yearly days that come back every year ({@code 12-25}); {@code 02-29} only in leap years
 * @param weekly windows that come back every week ({@code MON-FRI 08:00-18:00}, {@code SAT,SUN})
 */
public record Calendar(String name, ZoneId zone, List<LocalDate> dates, List<DateRange> ranges, List<MonthDay> yearly,
                       List<WeeklyWindow> weekly) {

    public Calendar {
        Objects.requireNonNull(name, "name must not be null");
        Objects.requireNonNull(zone, "zone must not be null");
        dates = List.copyOf(dates);
        ranges = List.copyOf(ranges);
        yearly = List.copyOf(yearly);
        weekly = List.copyOf(weekly);
    }

    /**
     * Days from {@code first} to {@code last}, both included.
     *
     * @param first the first day
     * @param last the last day, not before the first
     */
    public record DateRange(LocalDate first, LocalDate last) {

        public DateRange {
            if (last.isBefore(first)) {
                throw new IllegalArgumentException("the range ends (" + last + ") before it begins (" + first + ")");
            }
        }

        /** @throws IllegalArgumentException unless {@code text} is {@code 2027-12-24..2028-01-02} */
        public static DateRange parse(String text) {
            String[] ends = text == null ? new String[0] : text.split("\\.\\.", -1);
            if (ends.length != 2) {
                throw new IllegalArgumentException("'" + text + "' is not a range of days: first..last, as "
                        + "'2027-12-24..2028-01-02'");
            }
            return new DateRange(Calendars.date(ends[0].trim()), Calendars.date(ends[1].trim()));
        }

        boolean contains(LocalDate date) {
            return !date.isBefore(first) && !date.isAfter(last);
        }

        @Override
        public String toString() {
            return first + ".." + last;
        }
    }

    /** @return whether the instant, read in the calendar's zone, is inside it */
    public boolean contains(Instant instant) {
        LocalDateTime local = LocalDateTime.ofInstant(instant, zone);
        LocalDate date = local.toLocalDate();
        if (dates.contains(date) || yearly.contains(MonthDay.from(date))) {
            return true;
        }
        for (DateRange range : ranges) {
            if (range.contains(date)) {
                return true;
            }
        }
        for (WeeklyWindow window : weekly) {
            if (window.contains(local)) {
                return true;
            }
        }
        return false;
    }
}
