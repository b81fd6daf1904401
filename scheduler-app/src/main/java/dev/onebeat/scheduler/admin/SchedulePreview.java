package dev.onebeat.scheduler.admin;

import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.quartz.QuartzTriggers;
import dev.onebeat.scheduler.registry.Schedules;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The next fire instants of a schedule as Quartz will compute them, each also in local time of the
 * schedule's zone, so an operator sees what a daylight-saving change does to it before saving it.
 */
public final class SchedulePreview {

    private SchedulePreview() {
    }

    /**
     * @param schedule the schedule as Quartz runs it
     * @param zone the zone local times are shown in
     * @param fires the next instants, oldest first
     */
    public record Preview(String schedule, String zone, List<Fire> fires) {
    }

    /**
     * @param utc the instant
     * @param local the same instant in the schedule's zone, with its offset ({@code 2027-03-29T02:30:00+02:00})
     */
    public record Fire(Instant utc, String local) {
    }

    /**
     * @param cron a cron expression, or null
     * @param every an interval, or null
     * @param zone an IANA zone, null for UTC
     * @return the first {@code count} fires from {@code from} on, as Quartz computes them
     * @throws dev.onebeat.scheduler.registry.JobDefinitionException naming the field at fault, in the words
     *         start-up would use
     */
    public static Preview of(String cron, String every, String zone, Instant from, int count) {
        return of(Schedules.parse("", cron, every, zone), from, count);
    }

    /** @return the first {@code count} fires of {@code schedule} from {@code from} on, as Quartz computes them */
    public static Preview of(Schedule schedule, Instant from, int count) {
        List<Fire> fires = QuartzTriggers.fireTimes(schedule, from, count).stream()
                .map(at -> new Fire(at, DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(at.atZone(schedule.zone()))))
                .toList();
        return new Preview(schedule.describe(), schedule.zone().getId(), fires);
    }
}
