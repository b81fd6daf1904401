package dev.onebeat.scheduler.registry;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.text.ParseException;
import java.time.Duration;
import java.util.TimeZone;
import org.quartz.CronExpression;

/** Checks a job from any source before it is scheduled; the message names the job and the field. */
final class JobValidation {

    private JobValidation() {
    }

    /**
     * @param path the field's path, leading the message
     * @throws JobDefinitionException if Quartz cannot parse the expression or it never fires again
     */
    static void checkCron(String path, Schedule.Cron cron) {
        try {
            CronExpression expression = new CronExpression(cron.quartzExpression());
            expression.setTimeZone(TimeZone.getTimeZone(cron.zone()));
            if (expression.getNextValidTimeAfter(new java.util.Date()) == null) {
                throw new JobDefinitionException(path + ": '" + cron.source() + "' never fires again");
            }
        } catch (ParseException e) {
            throw new JobDefinitionException(path + ": '" + cron.source() + "' is not a valid Quartz cron "
                    + "expression: " + e.getMessage(), e);
        }
    }

    static RegisteredJob validate(RegisteredJob registered) {
        PeriodicJob job = registered.job();
        String name = job.name();
        String where = registered.origin() + " (job '" + name + "')";
        if (name == null || name.isBlank() || name.length() > 150) {
            throw new JobDefinitionException(where + ".name: must be 1 to 150 characters, was '" + name + "'");
        }
        Schedule schedule = job.schedule();
        if (schedule == null) {
            throw new JobDefinitionException(where + ".schedule: is missing");
        }
        if (schedule instanceof Schedule.Cron cron) {
            checkCron(where + ".cron", cron);
        }
        if (job.misfirePolicy() == null) {
            throw new JobDefinitionException(where + ".misfirePolicy: is missing");
        }
        Duration lock = job.lockAtMostFor();
        if (lock == null || lock.isNegative() || lock.isZero()) {
            throw new JobDefinitionException(where + ".lockAtMostFor: must be positive, was " + lock);
        }
        return registered;
    }
}
