package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.quartz.QuartzTriggers;
import dev.onebeat.scheduler.engine.quartz.TimetableTrigger;
import dev.onebeat.scheduler.engine.registry.JobListing;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.stereotype.Component;

/**
 * The jobs as the API and the console list them: every job of the job catalog, with its schedule's next
 * fire (from the schedule's Quartz trigger), its last committed fire (from the ledger), and what this
 * replica's registry knows of it. A page is two queries, whatever the number of jobs: a count that stops at
 * {@value #COUNT_CAP}, and the page's jobs.
 */
@Component
public class JobDirectory {

    /**
     * Jobs counted at most for a page's {@code total}, as for tasks: a catalog of a million jobs is not counted whole
     * on every page (100–150 ms of each page's 200).
     */
    public static final int COUNT_CAP = 10_000;

    private final JobListing listing;
    private final Scheduler scheduler;
    private final JobRegistry registry;

    JobDirectory(JobListing listing, Scheduler scheduler, JobRegistry registry) {
        this.listing = listing;
        this.scheduler = scheduler;
        this.registry = registry;
    }

    /**
     * @param items this page of jobs, by name
     * @param page page number, from 0
     * @param size page size
     * @param total jobs matching the search, at most {@value #COUNT_CAP}
     * @param totalCapped whether more than {@value #COUNT_CAP} match, so that {@code total} is a lower bound
     * @param hasMore whether jobs match beyond this page
     */
    public record JobPage(List<JobView> items, int page, int size, long total, boolean totalCapped, boolean hasMore) {
    }

    /**
     * @param query part of the name, any case; null or empty for all
     * @param namespaces the namespaces listed, null for all
     * @param page from 0
     * @param size page size
     */
    public JobPage search(String query, Collection<String> namespaces, int page, int size) {
        String search = query == null ? "" : query.strip().toLowerCase(Locale.ROOT);
        long counted = listing.count(search, namespaces, COUNT_CAP + 1);
        // a search matching up to COUNT_CAP jobs reads its matches first; one matching more walks the names in order
        List<JobView> items = read(search, null, namespaces, counted <= COUNT_CAP, size + 1, (long) page * size);
        boolean hasMore = items.size() > size;
        return new JobPage(hasMore ? items.subList(0, size) : items, page, size, Math.min(counted, COUNT_CAP),
                counted > COUNT_CAP, hasMore);
    }

    /** @return the job, if the catalog holds it or this replica registers it */
    public Optional<JobView> find(String name) {
        List<JobView> found = read("", name, null, false, 1, 0);
        if (!found.isEmpty()) {
            return Optional.of(found.get(0));
        }
        return registry.find(name).map(job -> view(name, job.job().schedule().describe(), false, false, null, null,
                null, null, new Origin(job.job().namespace(), null, false)));
    }

    private List<JobView> read(String search, String name, Collection<String> namespaces, boolean fewMatches,
                               int limit, long offset) {
        return listing.page(schedulerName(), QuartzTriggers.SCHEDULE_GROUP, search, name, namespaces, fewMatches,
                        limit, offset)
                .stream()
                .map(this::view)
                .toList();
    }

    private JobView view(JobListing.Row row) {
        // the trigger fires its lead ahead of the instant
        Instant nextFire = row.nextFireTime() == null ? null
                : Instant.ofEpochMilli(row.nextFireTime()).plus(TimetableTrigger.LEAD);
        return view(row.name(), row.schedule(), row.paused(), row.orphaned(), nextFire, row.lastFire(),
                row.pauseReason(), row.pausedUntil(), new Origin(row.namespace(), row.appliedFrom(), row.drifted()));
    }

    /** Where a job belongs and which file it came from. */
    private record Origin(String namespace, String appliedFrom, boolean drifted) {
    }

    private JobView view(String name, String firedSchedule, boolean paused, boolean orphaned, Instant nextFire,
                         Instant lastFire, String pauseReason, Instant pausedUntil, Origin origin) {
        Optional<RegisteredJob> registered = registry.find(name);
        PeriodicJob job = registered.map(RegisteredJob::job).orElse(null);
        Schedule schedule = job == null ? null : job.schedule();
        String written = schedule instanceof Schedule.Cron cron ? cron.source()
                : schedule == null ? null : schedule.describe();
        boolean stopped = paused || orphaned;
        return new JobView(name, written, firedSchedule, schedule == null ? null : schedule.zone().getId(),
                job == null ? null : job.misfirePolicy().name(),
                schedule instanceof Schedule.Cron cron ? cron.dst().gap().text() : null,
                schedule instanceof Schedule.Cron cron ? cron.dst().overlap().text() : null,
                stopped ? null : nextFire, lastFire, stopped,
                job != null, registered.map(RegisteredJob::origin).orElse(null),
                job != null && registry.defined(name).isEmpty(), pauseReason, pausedUntil,
                job == null ? null : job.retry().attempts(), job == null ? null : job.catchUpWindow(),
                job == null ? null : job.maxCatchUp(), job == null ? null : job.overlapPolicy().name(),
                job == null ? null : job.alerts(), job == null ? null : job.jitter(),
                job == null ? null : job.spread(), job == null ? null : job.calendars(), origin.namespace(),
                origin.appliedFrom(), origin.drifted());
    }

    private String schedulerName() {
        try {
            return scheduler.getSchedulerName();
        } catch (SchedulerException e) {
            throw new IllegalStateException("Quartz scheduler unavailable", e);
        }
    }
}
