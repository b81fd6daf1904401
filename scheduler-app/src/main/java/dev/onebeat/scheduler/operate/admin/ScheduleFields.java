package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.registry.Schedules;
import java.time.Instant;

/**
 * A schedule as the API's query parameters and the console's forms write it: text, checked only when
 * {@link #parse(Instant) parsed}, so a mistake is reported in the words start-up uses.
 *
 * @param cron a cron expression (Unix, Quartz or a macro), or null
 * @param every an interval ({@code 10s}, {@code PT5M}), or null
 * @param zone an IANA zone, null for UTC
 * @param gap {@code shift} or {@code skip}, null for the default ({@code shift}); for a cron only
 * @param overlap {@code first}, {@code last} or {@code both}, null for the default ({@code first}); for a
 *     cron only
 */
public record ScheduleFields(String cron, String every, String zone, String gap, String overlap) {

    /**
     * @param from the time after which the schedule must still fire
     * @return the schedule
     * @throws dev.onebeat.scheduler.engine.registry.JobDefinitionException naming the field at fault, or saying
     *         that the cron never fires after {@code from}
     */
    public Schedule parse(Instant from) {
        Schedule schedule = Schedules.parse("", cron, every, zone, gap, overlap);
        Schedules.requireFiresAgain("", schedule, from);
        return schedule;
    }
}
