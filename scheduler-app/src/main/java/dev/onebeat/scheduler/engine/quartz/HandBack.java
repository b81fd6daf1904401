package dev.onebeat.scheduler.engine.quartz;

import io.micrometer.core.instrument.Metrics;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a replica does with a fire of a job it does not register (during a rolling deploy, an older
 * replica may fire a schedule one of whose jobs only newer replicas know). Skipping would lose the
 * instant; instead the replica hands it back to the cluster as a one-shot trigger of
 * {@link SingleFireJob} carrying the job and its instant, which any replica may pick up. The one that
 * registers the job fires it for that instant, so the keys are those of an on-time fire; the ledger
 * stops any second fire.
 */
final class HandBack {

    /** The counter of fires given up, {@code onebeat_fire_lost_total}. */
    static final String LOST_METRIC = "onebeat.fire.lost";

    private static final Logger log = LoggerFactory.getLogger(HandBack.class);

    static final String GROUP = "onebeat-handback";
    /** Trigger data key: the instant (epoch millis) the handed-back fire stands for. */
    static final String INSTANT = "onebeat.handback.instant";
    static final String ATTEMPT = "onebeat.handback.attempt";
    /** Trigger data key: the jobs of a group hand-back ({@link #recover}), their names joined by line feeds. */
    static final String JOB_NAMES = "onebeat.handback.jobs";
    /** How the name of a group hand-back begins ({@link #groupName}). */
    static final String GROUP_PREFIX = "lost@";
    /** About two minutes of hand-backs before the instant is given up, loudly. */
    static final int MAX_ATTEMPTS = 120;
    private static final Duration DELAY = Duration.ofSeconds(1);

    private HandBack() {
    }

    static boolean isHandedBack(JobDataMap data) {
        return data.containsKey(INSTANT);
    }

    static Instant instant(JobDataMap data) {
        return Instant.ofEpochMilli(data.getLong(INSTANT));
    }

    /** Hands the fires of {@code jobs} for {@code scheduledAt} to the cluster, in one write. */
    static void toCluster(Scheduler scheduler, Collection<String> jobs, Instant scheduledAt, Clock clock) {
        for (String job : jobs) {
            schedule(scheduler, job, scheduledAt, single(job, scheduledAt, clock));
        }
        if (!jobs.isEmpty()) {
            log.warn("jobs not registered on this replica, fires handed back to the cluster scheduledAt={} jobs={}",
                    scheduledAt, jobs.size() <= 10 ? jobs : jobs.size());
        }
    }

    /**
     * Hands to the cluster the fires of {@code jobs} for {@code scheduledAt} whose commits were lost with a failed-over
     * database server ({@link LostFires}), as one one-shot trigger of {@link LostFiresJob}: the replica that takes it
     * fires them together, as recoveries with the keys of the schedule's own fire, by the batch path, and hands those it
     * does not register back one by one. One trigger a job and instant made a look after a failover of 10,000 jobs
     * write 78,240 triggers in 52 s, each then fired alone (BENCHMARKS.md).
     *
     * @param jobs the jobs, at least one: the trigger is named by the set, so that a later look that finds the same
     *     instant lost for the same jobs (its hand-back not fired yet) makes the same trigger, which is refused
     * @return whether it was handed back now; false if it had been already (the same trigger exists)
     * @throws SchedulerException when it could not be handed back: the look's batch fails and is rolled back (a failed
     *     statement has aborted its transaction anyway), and a later round, if one is left, looks again. A fire is not
     *     counted lost here, nor one whose write a shutdown cancelled
     */
    static boolean recover(Scheduler scheduler, Collection<String> jobs, Instant scheduledAt, Clock clock)
            throws SchedulerException {
        List<String> names = jobs.stream().distinct().sorted().toList();
        if (names.isEmpty()) {
            throw new IllegalArgumentException("jobs: at least one to hand back, was none");
        }
        JobDataMap data = new JobDataMap();
        data.put(JOB_NAMES, String.join("\n", names));
        data.put(INSTANT, scheduledAt.toEpochMilli());
        Trigger trigger = TriggerBuilder.newTrigger()
                .withIdentity(groupName(names, scheduledAt), GROUP)
                .forJob(QuartzTriggers.LOST_JOB)
                .usingJobData(data)
                .startAt(Date.from(clock.instant().plus(DELAY)))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
        return scheduleOnce(scheduler, trigger, scheduledAt, names.size());
    }

    /**
     * Hands to the cluster the lost fire of one job for {@code scheduledAt} ({@link LostFires}) as a single fire of its
     * own ({@link SingleFireJob}), as a job written in code or one that allows overlaps is fired, even in a schedule's
     * instant: alone, so that a slow one holds up no other.
     *
     * @return whether it was handed back now; false if it had been already (the same trigger exists)
     * @throws SchedulerException as {@link #recover(Scheduler, Collection, Instant, Clock)}
     */
    static boolean recoverAlone(Scheduler scheduler, String job, Instant scheduledAt, Clock clock)
            throws SchedulerException {
        return scheduleOnce(scheduler, single(job, scheduledAt, clock), scheduledAt, 1);
    }

    /** @return the first hand-back of the schedule's own fire of {@code job} for {@code scheduledAt}, alone */
    private static Trigger single(String job, Instant scheduledAt, Clock clock) {
        JobDataMap data = new JobDataMap();
        data.put(QuartzTriggers.JOB_NAME, job);
        data.put(INSTANT, scheduledAt.toEpochMilli());
        data.put(ATTEMPT, 1);
        return retry(job, scheduledAt, 1, data, clock);
    }

    private static boolean scheduleOnce(Scheduler scheduler, Trigger trigger, Instant scheduledAt, int jobs)
            throws SchedulerException {
        try {
            scheduler.scheduleJob(trigger);
            return true;
        } catch (ObjectAlreadyExistsException e) {
            log.debug("fires handed back already scheduledAt={} jobs={} trigger={}", scheduledAt, jobs,
                    trigger.getKey());
            return false;
        }
    }

    /** @return the jobs a trigger hands back with their instant: those of a group, or a single fire's one job */
    static List<String> jobs(JobDataMap data) {
        return data.containsKey(JOB_NAMES) ? List.of(data.getString(JOB_NAMES).split("\n"))
                : List.of(data.getString(QuartzTriggers.JOB_NAME));
    }

    /**
     * The name of a group hand-back: {@code lost@<instant millis>~<jobs>#<count>}, the jobs named by 32 hex digits
     * of the SHA-256 of their sorted names joined by line feeds (a job's name has no control character).
     */
    static String groupName(List<String> sortedJobs, Instant scheduledAt) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(String.join("\n", sortedJobs)
                    .getBytes(StandardCharsets.UTF_8));
            return GROUP_PREFIX + scheduledAt.toEpochMilli() + "~" + HexFormat.of().formatHex(digest, 0, 16) + "#"
                    + sortedJobs.size();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** Hands a single fire that reached a replica not registering its job back to the cluster once more. */
    static void again(JobExecutionContext context, String job, Instant scheduledAt, Clock clock) {
        JobDataMap data = context.getMergedJobDataMap();
        int attempt = data.containsKey(ATTEMPT) ? data.getInt(ATTEMPT) + 1 : 1;
        if (attempt > MAX_ATTEMPTS) {
            log.error("fire lost: no replica registering the job took it job={} scheduledAt={} attempts={}", job,
                    scheduledAt, MAX_ATTEMPTS);
            lost();
            return;
        }
        JobDataMap retryData = new JobDataMap();
        retryData.put(QuartzTriggers.JOB_NAME, job);
        retryData.put(INSTANT, scheduledAt.toEpochMilli());
        retryData.put(ATTEMPT, attempt);
        if (data.containsKey(QuartzTriggers.MANUAL_TIME)) {
            // a "trigger now" keeps the instant it was requested for, wherever it ends up firing
            retryData.put(QuartzTriggers.MANUAL_TIME, data.getLong(QuartzTriggers.MANUAL_TIME));
            if (data.containsKey(QuartzTriggers.MANUAL_RUN)) {
                retryData.put(QuartzTriggers.MANUAL_RUN, data.getString(QuartzTriggers.MANUAL_RUN));
            }
        }
        if (Retries.isRetry(data)) {
            // so does a retry its attempt
            retryData.put(Retries.INSTANT, data.getLong(Retries.INSTANT));
            retryData.put(Retries.ATTEMPT, data.getInt(Retries.ATTEMPT));
            if (data.containsKey(Retries.RUN)) {
                retryData.put(Retries.RUN, data.getString(Retries.RUN));
            }
            if (Retries.byOperator(data)) {
                retryData.put(Retries.OPERATOR, true);
            }
        }
        if (attempt == 1) {
            log.warn("job not registered on this replica, fire handed back to the cluster job={} scheduledAt={}",
                    job, scheduledAt);
        } else {
            log.debug("fire handed back again job={} scheduledAt={} attempt={}", job, scheduledAt, attempt);
        }
        schedule(context.getScheduler(), job, scheduledAt, retry(job, scheduledAt, attempt, retryData, clock));
    }

    /**
     * The name of a hand-back trigger: the job, the instant and the hand-back's attempt, and for a fire that is not the
     * schedule's own, which one it is (a "run now" by its request id, a later attempt by its number and run), so that
     * two fires of one job and one millisecond handed back at once (two "run now" requests, the schedule's fire and a
     * manual run on its instant) each keep their own trigger. The same fire handed back twice (a recovery repeating
     * a hand-back) gets the same name, and the second is refused. A run's id is up to 100 characters and a trigger's
     * name at most 200: the fire is named by 20 hex digits of a hash, which with a 150-character job name still fits.
     */
    static String name(String job, Instant scheduledAt, int attempt, JobDataMap data) {
        String name = job + "@" + scheduledAt.toEpochMilli() + "#" + attempt;
        String fire = null;
        if (Retries.isRetry(data)) {
            fire = "retry " + data.getInt(Retries.ATTEMPT) + " " + (Retries.byOperator(data) ? "operator " : "")
                    + (data.containsKey(Retries.RUN) ? data.getString(Retries.RUN) : "");
        } else if (data.containsKey(QuartzTriggers.MANUAL_TIME)) {
            fire = "manual " + (data.containsKey(QuartzTriggers.MANUAL_RUN) ? data.getString(QuartzTriggers.MANUAL_RUN) : "");
        }
        return fire == null ? name : name + "~" + UUID.nameUUIDFromBytes(fire.getBytes(StandardCharsets.UTF_8))
                .toString().replace("-", "").substring(0, 20);
    }

    private static Trigger retry(String job, Instant scheduledAt, int attempt, JobDataMap data, Clock clock) {
        return TriggerBuilder.newTrigger()
                .withIdentity(name(job, scheduledAt, attempt, data), GROUP)
                .forJob(QuartzTriggers.SINGLE_JOB)
                .usingJobData(data)
                .startAt(Date.from(clock.instant().plus(DELAY)))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
    }

    private static void schedule(Scheduler scheduler, String job, Instant scheduledAt, Trigger trigger) {
        try {
            scheduler.scheduleJob(trigger);
        } catch (ObjectAlreadyExistsException e) {
            // this very fire was handed back already (a recovery repeating the fire that did it): that trigger stands
            log.debug("fire handed back already job={} scheduledAt={} trigger={}", job, scheduledAt, trigger.getKey());
        } catch (SchedulerException e) {
            log.error("fire lost: could not hand it back job={} scheduledAt={} error={}", job, scheduledAt,
                    e.toString(), e);
            lost();
        }
    }

    /**
     * Counts a fire given up as {@code onebeat_fire_lost_total}, in Micrometer's global registry, which Spring Boot
     * feeds to its own: a hand-back runs in Quartz's static callbacks, outside any bean.
     */
    private static void lost() {
        lost(1);
    }

    /** Counts {@code fires} given up as {@code onebeat_fire_lost_total}. */
    static void lost(int fires) {
        Metrics.counter(LOST_METRIC).increment(fires);
    }
}
