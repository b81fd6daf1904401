package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.fire.RetryScheduler;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.quartz.JobDataMap;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.springframework.stereotype.Component;

/**
 * The next attempts of failed fires, as one-shot Quartz triggers of {@link SingleFireJob} (group
 * {@value #GROUP}), stored in the caller's transaction: any replica registering the job fires it when it
 * is due, the replica that failed included or not, and a replica dying during it leaves it to Quartz's
 * recovery. The trigger is named by job, instant and attempt, so one attempt is armed once.
 */
@Component
public class Retries implements RetryScheduler {

    static final String GROUP = "onebeat-retry";
    /** Trigger data key: the instant (epoch millis) the retried fire stands for. */
    static final String INSTANT = "onebeat.retry.instant";
    /** Trigger data key: the attempt this trigger makes, from 2. */
    static final String ATTEMPT = "onebeat.retry.attempt";
    /** Trigger data key: the run outside the schedule the attempt belongs to, absent for the schedule's fire. */
    static final String RUN = "onebeat.retry.run";
    /**
     * Trigger data key: present when an operator asked for the attempt (a re-run, or the next attempt of a backfill's
     * or a re-run's failed one), fired as a backfill.
     */
    static final String OPERATOR = "onebeat.retry.operator";

    private final Scheduler scheduler;

    Retries(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A run's id is up to 100 characters and a trigger's name at most 200: the run is named by 20 hex digits of
     * its hash, which with a 150-character job name still fits.
     */
    private static String name(String job, Instant scheduledAt, String run, int attempt) {
        String name = job + "@" + scheduledAt.toEpochMilli() + "#" + attempt;
        return run == null ? name : name + "~" + UUID.nameUUIDFromBytes(run.getBytes(StandardCharsets.UTF_8))
                .toString().replace("-", "").substring(0, 20);
    }

    static boolean isRetry(JobDataMap data) {
        return data.containsKey(ATTEMPT);
    }

    static Instant instant(JobDataMap data) {
        return Instant.ofEpochMilli(data.getLong(INSTANT));
    }

    static int attempt(JobDataMap data) {
        return data.getInt(ATTEMPT);
    }

    static boolean byOperator(JobDataMap data) {
        return data.containsKey(OPERATOR);
    }

    /**
     * @param data a retry trigger's data
     * @param node the replica firing it
     * @return the attempt it stands for: of an operator's fire a backfill, else a retry
     */
    static FireRequest request(JobDataMap data, String node) {
        return new FireRequest(instant(data), byOperator(data) ? FireTrigger.BACKFILL : FireTrigger.RETRY, node,
                run(data), attempt(data));
    }

    static String run(JobDataMap data) {
        return data.containsKey(RUN) ? data.getString(RUN) : null;
    }

    @Override
    public void schedule(String job, Instant scheduledAt, String run, int attempt, Instant at, boolean byOperator) {
        arm(job, scheduledAt, run, attempt, at, byOperator);
    }

    /**
     * Arms an attempt an operator asked for, due now, in the caller's transaction.
     *
     * @return false if that attempt was armed already
     */
    public boolean rerun(String job, Instant scheduledAt, int attempt, Instant now) {
        return arm(job, scheduledAt, null, attempt, now, true);
    }

    private boolean arm(String job, Instant scheduledAt, String run, int attempt, Instant at, boolean byOperator) {
        JobDataMap data = new JobDataMap();
        if (byOperator) {
            data.put(OPERATOR, true);
        }
        data.put(QuartzTriggers.JOB_NAME, job);
        data.put(INSTANT, scheduledAt.toEpochMilli());
        data.put(ATTEMPT, attempt);
        if (run != null) {
            data.put(RUN, run);
        }
        try {
            scheduler.scheduleJob(TriggerBuilder.newTrigger()
                    .withIdentity(name(job, scheduledAt, run, attempt), GROUP)
                    .forJob(QuartzTriggers.SINGLE_JOB)
                    .usingJobData(data)
                    .startAt(Date.from(at))
                    .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                    .build());
            return true;
        } catch (ObjectAlreadyExistsException e) {
            // armed before, by a fire of this attempt that a recovery repeated
            return false;
        } catch (SchedulerException e) {
            throw new IllegalStateException("could not arm attempt " + attempt + " of job '" + job + "' at "
                    + scheduledAt + ": " + e.getMessage(), e);
        }
    }
}
