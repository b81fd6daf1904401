package dev.onebeat.scheduler.admin;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.quartz.QuartzTriggers;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RegisteredJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;
import org.springframework.stereotype.Component;

/**
 * The jobs as the API and the console list them: every job Quartz holds for the cluster, with what this
 * replica's registry knows of it. Only names are read for a search; the Quartz state is read for the
 * requested page alone, so a page of 50 out of 10,000 jobs costs 50 trigger reads.
 */
@Component
public class JobDirectory {

    private final Scheduler scheduler;
    private final JobRegistry registry;

    JobDirectory(Scheduler scheduler, JobRegistry registry) {
        this.scheduler = scheduler;
        this.registry = registry;
    }

    /**
     * @param items this page of jobs, by name
     * @param page page number, from 0
     * @param size page size
     * @param total jobs matching the search
     */
    public record JobPage(List<JobView> items, int page, int size, long total) {

        /** @return the number of pages, at least 1 */
        public int pages() {
            return (int) Math.max(1, (total + size - 1) / size);
        }
    }

    /**
     * @param query part of the name, any case; null or empty for all
     * @param page from 0
     * @param size page size
     */
    public JobPage search(String query, int page, int size) {
        String search = query == null ? "" : query.strip().toLowerCase(Locale.ROOT);
        try {
            List<String> names = scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.GROUP)).stream()
                    .map(JobKey::getName)
                    .filter(name -> name.toLowerCase(Locale.ROOT).contains(search))
                    .sorted()
                    .toList();
            List<JobView> views = new ArrayList<>();
            for (String name : names.stream().skip((long) page * size).limit(size).toList()) {
                view(name).ifPresent(views::add);
            }
            return new JobPage(views, page, size, names.size());
        } catch (SchedulerException e) {
            throw new IllegalStateException("cannot read the jobs from Quartz: " + e.getMessage(), e);
        }
    }

    /** @return the job, if Quartz holds it or this replica registers it */
    public Optional<JobView> find(String name) {
        try {
            return view(name);
        } catch (SchedulerException e) {
            throw new IllegalStateException("cannot read job '" + name + "' from Quartz: " + e.getMessage(), e);
        }
    }

    private Optional<JobView> view(String name) throws SchedulerException {
        Optional<RegisteredJob> registered = registry.find(name);
        JobDetail detail = scheduler.getJobDetail(QuartzTriggers.jobKey(name));
        if (registered.isEmpty() && detail == null) {
            return Optional.empty();
        }
        Trigger trigger = scheduler.getTrigger(QuartzTriggers.triggerKey(name));
        boolean paused = trigger == null
                || scheduler.getTriggerState(trigger.getKey()) == Trigger.TriggerState.PAUSED;
        PeriodicJob job = registered.map(RegisteredJob::job).orElse(null);
        Schedule schedule = job == null ? null : job.schedule();
        String written = schedule instanceof Schedule.Cron cron ? cron.source()
                : schedule == null ? null : schedule.describe();
        // what the shared store runs, which another replica may have changed since this one reloaded
        String quartz = trigger == null ? null : QuartzTriggers.describe(trigger);
        if (quartz == null) {
            quartz = schedule != null ? schedule.describe() : detail == null ? null : detail.getDescription();
        }
        return Optional.of(new JobView(name, written, quartz, schedule == null ? null : schedule.zone().getId(),
                job == null ? null : job.misfirePolicy().name(),
                paused || trigger == null ? null : instant(trigger.getNextFireTime()),
                trigger == null ? null : instant(trigger.getPreviousFireTime()), paused, job != null,
                registered.map(RegisteredJob::origin).orElse(null),
                job != null && registry.defined(name).isEmpty()));
    }

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }
}
