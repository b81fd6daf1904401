package dev.onebeat.scheduler.engine.calendar;

import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Calendars declared in configuration ({@code onebeat.calendars.<name>}). Fields are kept as text so that
 * {@link Calendars} reports every problem with the calendar's name and the field.
 *
 * @param calendars calendars by name, which jobs name in their {@code calendars.include} and {@code calendars.exclude}
 */
@ConfigurationProperties("onebeat")
public record CalendarsProperties(@DefaultValue Map<String, Definition> calendars) {

    /**
     * One calendar. The same record is the body of the admin API's calendar requests and the JSON stored for each
     * calendar made through it ({@code onebeat_calendar.definition}): its component names are a wire format.
     *
     * @param zone IANA zone its days and times are read in, default UTC
     * @param dates single days, such as {@code 2027-05-13}
     * @param ranges runs of days, both ends included, such as {@code 2027-12-24..2028-01-02}
     * @param yearly days of every year, such as {@code 12-25}
     * @param weekly windows of every week, such as {@code MON-FRI 08:00-18:00} or {@code SAT,SUN}
     */
    public record Definition(String zone, List<String> dates, List<String> ranges, List<String> yearly,
                             List<String> weekly) {
    }
}
