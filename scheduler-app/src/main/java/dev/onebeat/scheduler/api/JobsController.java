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
import java.util.Comparator;
import java.util.Date;
import java.util.List;
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

/** {@code GET /api/jobs} and {@code GET /api/jobs/{name}/fires}. */
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

    @GetMapping
    List<JobView> jobs() throws SchedulerException {
        List<JobView> views = new ArrayList<>();
        for (JobKey key : scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.GROUP))) {
            views.add(view(key.getName()));
        }
        views.sort(Comparator.comparing(JobView::name));
        return views;
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
        String quartz = schedule == null ? scheduler.getJobDetail(QuartzTriggers.jobKey(name)).getDescription()
                : schedule.describe();
        return new JobView(name, written, quartz, schedule == null ? null : schedule.zone().getId(),
                job == null ? null : job.misfirePolicy().name(),
                paused || trigger == null ? null : instant(trigger.getNextFireTime()),
                trigger == null ? null : instant(trigger.getPreviousFireTime()), paused, job != null);
    }

    private static Instant instant(Date date) {
        return date == null ? null : date.toInstant();
    }
}
