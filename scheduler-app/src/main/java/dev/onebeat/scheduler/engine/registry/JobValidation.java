package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import org.quartz.CronExpression;

/** Checks a job from any source before it is scheduled; the message names the job and the field. */
final class JobValidation {

    private JobValidation() {
    }

    /**
     * @param path the field's path, leading the message
     * @param now the time after which the cron must still fire
     * @throws JobDefinitionException if Quartz cannot parse the expression or it never fires after {@code now}
     */
    static void checkCron(String path, Schedule.Cron cron, Instant now) {
        if (ScheduleMemo.checked(cron)) {
            return;
        }
        checkSyntax(path, cron);
        checkFiresAgain(path, cron, now);
        ScheduleMemo.remember(cron);
    }

    /**
     * @throws JobDefinitionException if Quartz's parser, which reads every cron onebeat runs, refuses it, or
     *         onebeat's timetable does: it reads a day of month with {@code W} itself, and refuses what
     *         Quartz would silently cut short ({@code 1W/2}, {@code 0W})
     */
    static void checkSyntax(String path, Schedule.Cron cron) {
        try {
            new CronExpression(cron.quartzExpression());
        } catch (ParseException e) {
            throw new JobDefinitionException(path + ": '" + cron.source() + "' is not a valid Quartz cron "
                    + "expression: " + e.getMessage(), e);
        }
        try {
            Timetable.of(cron);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Asks onebeat's own timetable, with the cron's daylight-saving policy: Quartz's calendar says a cron
     * matching only times in a gap (02:30 on the last Sunday of March in Paris) never fires, where
     * {@code gap=shift} fires it every year.
     *
     * @param now the time after which the cron must still fire, from the caller's clock
     * @throws JobDefinitionException if the cron has no instant after now, saying so when {@code gap=skip}
     *         is why
     */
    static void checkFiresAgain(String path, Schedule.Cron cron, Instant now) {
        if (Timetable.of(cron).next(now) != null) {
            return;
        }
        boolean skipped = cron.dst().gap() == DstPolicy.Gap.SKIP
                && Timetable.of(cron.onGap(DstPolicy.Gap.SHIFT)).next(now) != null;
        throw new JobDefinitionException(path + ": '" + cron.source() + "' never fires again" + (skipped
                ? ": every time it matches falls in a daylight-saving gap, and gap=skip skips it" : ""));
    }

    /**
     * @param now the time the schedule's coming instants are read from, to check its jitter and spread
     * @throws JobDefinitionException naming the job and the field at fault
     */
    static RegisteredJob validate(RegisteredJob registered, Instant now) {
        // registered with an empty origin: a job of an API request, validated before it is stored
        PeriodicJob job = registered.job();
        String name = job.name();
        // an API request's job is named by the request: its fields alone lead the message, as DeclarativeJobs words it
        String where = registered.origin().isEmpty() ? "" : registered.origin() + " (job '" + name + "')";
        if (name == null || name.isBlank() || name.length() > 150) {
            throw new JobDefinitionException(
                    where + ".name: must be 1 to 150 UTF-16 code units (an emoji counts two), was '" + name + "'");
        }
        Schedule schedule = job.schedule();
        if (schedule == null) {
            throw new JobDefinitionException(where + ".schedule: is missing");
        }
        if (schedule instanceof Schedule.Cron cron) {
            checkCron(Schedules.path(where, "cron"), cron, now);
        }
        if (job.misfirePolicy() == null) {
            throw new JobDefinitionException(where + ".misfirePolicy: is missing");
        }
        Duration lock = job.lockAtMostFor();
        if (lock == null || lock.isNegative() || lock.isZero()) {
            throw new JobDefinitionException(where + ".lockAtMostFor: must be positive, was " + lock);
        }
        if (job.retry() == null) {
            throw new JobDefinitionException(where + ".retry: is missing");
        }
        Duration catchUp = job.catchUpWindow();
        if (catchUp == null || catchUp.isNegative() || catchUp.isZero()) {
            throw new JobDefinitionException(where + ".catchUpWindow: must be positive, was " + catchUp);
        }
        if (job.maxCatchUp() < 1) {
            throw new JobDefinitionException(where + ".maxCatchUp: must be at least 1, was " + job.maxCatchUp());
        }
        if (job.overlapPolicy() == null) {
            throw new JobDefinitionException(where + ".overlapPolicy: is missing");
        }
        checkMove(where, job, now);
        return registered;
    }

    /**
     * A fire moved by its jitter and spread must begin before the next instant is due, so that the fires of one job
     * keep their order and its overlap policy means what it says, and inside the catch-up window, past which an
     * instant is no longer fired.
     */
    private static void checkMove(String where, PeriodicJob job, Instant now) {
        Duration jitter = job.jitter();
        Duration spread = job.spread();
        checkMove(where, "jitter", jitter);
        checkMove(where, "spread", spread);
        Duration moved = jitter.plus(spread);
        if (moved.isZero()) {
            return;
        }
        String field = jitter.isZero() ? "spread" : "jitter";
        String what = jitter.isZero() ? "spread " + spread : spread.isZero() ? "jitter " + jitter
                : "jitter " + jitter + " plus spread " + spread;
        if (moved.compareTo(job.catchUpWindow()) >= 0) {
            throw new JobDefinitionException(Schedules.path(where, field) + ": " + what + " must be shorter than the catch-up "
                    + "window (" + job.catchUpWindow() + "): a fire moved that far would be too old to fire");
        }
        Duration gap = ScheduleMemo.shortestGap(job.schedule(), () -> FireMoments.shortestGap(job.schedule(), now));
        if (gap != null && moved.compareTo(gap) >= 0) {
            throw new JobDefinitionException(Schedules.path(where, field) + ": " + what + " must be shorter than the shortest "
                    + "time between two instants of the schedule (" + gap + "): a fire would begin after the next "
                    + "instant's");
        }
    }

    private static void checkMove(String where, String field, Duration value) {
        if (value == null || value.isNegative() || (!value.isZero() && value.toMillis() == 0)) {
            throw new JobDefinitionException(Schedules.path(where, field) + ": must be zero or at least 1 ms, was " + value);
        }
    }
}
