package dev.onebeat.scheduler.api;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.fire.FireLedger;
import dev.onebeat.scheduler.fire.FireRecord;
import dev.onebeat.scheduler.quartz.QuartzTriggers;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RegisteredJob;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** {@code GET /api/jobs} (searched by name, paged) and {@code GET /api/jobs/{name}/fires}. */
@RestController
@RequestMapping("/api/jobs")
class JobsController {

    private final Scheduler scheduler;
    private final JobRegistry registry;
    private final FireLedger ledger;

    JobsController(Scheduler scheduler, JobRegistry registry, FireLedger ledger) {
        this.scheduler = scheduler;
        this.registry = registry;
        this.ledger = ledger;
    }

    /**
     * @param items this page of jobs, by name
     * @param page page number, from 0
     * @param size page size
     * @param total jobs matching the search
     */
    record JobPage(List<JobView> items, int page, int size, long total) {
    }

    /** Only the names are read for all jobs; the Quartz state is read for the requested page alone. */
    @GetMapping
    JobPage jobs(@RequestParam(required = false) String q,
                 @RequestParam(defaultValue = "0") @Min(0) int page,
                 @RequestParam(defaultValue = "50") @Min(1) @Max(500) int size) throws SchedulerException {
        String search = q == null ? "" : q.toLowerCase(Locale.ROOT);
        List<String> names = scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.GROUP)).stream()
                .map(JobKey::getName)
                .filter(name -> name.toLowerCase(Locale.ROOT).contains(search))
                .sorted()
                .toList();
        List<JobView> views = new ArrayList<>();
        for (String name : names.stream().skip((long) page * size).limit(size).toList()) {
            views.add(view(name));
        }
        return new JobPage(views, page, size, names.size());
    }

    @GetMapping("/{name}/fires")
    List<FireRecord> fires(@PathVariable String name,
                           @RequestParam(defaultValue = "20") @Min(1) @Max(1000) int limit) throws SchedulerException {
        if (registry.find(name).isEmpty() && !scheduler.checkExists(QuartzTriggers.jobKey(name))) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no job named '" + name + "'");
        }
        return ledger.history(name, limit);
    }

    private JobView view(String name) throws SchedulerException {
        Trigger trigger = scheduler.getTrigger(QuartzTriggers.triggerKey(name));
        boolean paused = trigger == null
                || scheduler.getTriggerState(trigger.getKey()) == Trigger.TriggerState.PAUSED;
        PeriodicJob job = registry.find(name).map(RegisteredJob::job).orElse(null);
        Schedule schedule = job == null ? null : job.schedule();
        String written = schedule instanceof Schedule.Cron cron ? cron.source()
                : schedule == null ? null : schedule.describe();
        String quartz = schedule != null ? schedule.describe() : storedDescription(name);
        return new JobView(name, written, quartz, schedule == null ? null : schedule.zone().getId(),
                job == null ? null : job.misfirePolicy().name(),
                paused || trigger == null ? null : instant(trigger.getNextFireTime()),
                trigger == null ? null : instant(trigger.getPreviousFireTime()), paused, job != null);
    }

    /** @return the schedule stored with a job this replica does not register; null if it was just deleted */
    private String storedDescription(String name) throws SchedulerException {
        JobDetail detail = scheduler.getJobDetail(QuartzTriggers.jobKey(name));
        return detail == null ? null : detail.getDescription();
    }

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }
}
