package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.quartz.QuartzTriggers;
import dev.onebeat.scheduler.engine.quartz.TimetableTrigger;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The jobs as the API and the console list them: every job of the job catalog, with its schedule's next
 * fire (from the schedule's Quartz trigger), its last committed fire (from the ledger), and what this
 * replica's registry knows of it. A page is one query, whatever the number of jobs.
 */
@Component
public class JobDirectory {

    // the catalog, the schedule's trigger and the ledger's last row per job, read together for one page
    private static final String PAGE = """
            SELECT j.name, j.schedule, j.paused, j.orphaned, t.next_fire_time,
                   (SELECT f.scheduled_at FROM onebeat_fire f WHERE f.job_name = j.name
                    ORDER BY f.scheduled_at DESC LIMIT 1) AS last_fire, j.pause_reason, j.paused_until
            FROM onebeat_job j
            LEFT JOIN qrtz_triggers t ON t.sched_name = :scheduler AND t.trigger_group = :group
                                     AND t.trigger_name = j.schedule_key
            WHERE strpos(lower(j.name), :search) > 0 AND (CAST(:name AS text) IS NULL OR j.name = :name)
            ORDER BY j.name LIMIT :limit OFFSET :offset
            """;

    private final JdbcClient jdbc;
    private final Scheduler scheduler;
    private final JobRegistry registry;

    JobDirectory(JdbcClient jdbc, Scheduler scheduler, JobRegistry registry) {
        this.jdbc = jdbc;
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
        long total = jdbc.sql("SELECT count(*) FROM onebeat_job WHERE strpos(lower(name), ?) > 0")
                .param(search).query(Long.class).single();
        return new JobPage(read(search, null, size, (long) page * size), page, size, total);
    }

    /** @return the job, if the catalog holds it or this replica registers it */
    public Optional<JobView> find(String name) {
        List<JobView> found = read("", name, 1, 0);
        if (!found.isEmpty()) {
            return Optional.of(found.get(0));
        }
        return registry.find(name).map(job -> view(name, job.job().schedule().describe(), false, false, null, null,
                null, null));
    }

    private List<JobView> read(String search, String name, int limit, long offset) {
        return jdbc.sql(PAGE)
                .param("scheduler", schedulerName())
                .param("group", QuartzTriggers.SCHEDULE_GROUP)
                .param("search", search)
                .param("name", name)
                .param("limit", limit)
                .param("offset", offset)
                .query(this::row)
                .list();
    }

    private JobView row(ResultSet rs, int row) throws SQLException {
        long next = rs.getLong(5);
        // the trigger fires its lead ahead of the instant
        Instant nextFire = rs.wasNull() ? null : Instant.ofEpochMilli(next).plus(TimetableTrigger.LEAD);
        Timestamp last = rs.getTimestamp(6);
        Timestamp until = rs.getTimestamp(8);
        return view(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getBoolean(4), nextFire,
                last == null ? null : last.toInstant(), rs.getString(7), until == null ? null : until.toInstant());
    }

    private JobView view(String name, String firedSchedule, boolean paused, boolean orphaned, Instant nextFire,
                         Instant lastFire, String pauseReason, Instant pausedUntil) {
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
                job == null ? null : job.alerts());
    }

    private String schedulerName() {
        try {
            return scheduler.getSchedulerName();
        } catch (SchedulerException e) {
            throw new IllegalStateException("Quartz scheduler unavailable", e);
        }
    }
}
