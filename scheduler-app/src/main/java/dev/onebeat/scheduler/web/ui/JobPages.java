package dev.onebeat.scheduler.web.ui;

import dev.onebeat.job.Durations;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.fire.FireFilter;
import dev.onebeat.scheduler.engine.fire.FireLedger;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.NamespaceLimitException;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.operate.admin.AdminConflictException;
import dev.onebeat.scheduler.operate.admin.AuditLog;
import dev.onebeat.scheduler.operate.admin.InstantRuns;
import dev.onebeat.scheduler.operate.admin.JobControl;
import dev.onebeat.scheduler.operate.admin.JobDirectory;
import dev.onebeat.scheduler.operate.admin.JobView;
import dev.onebeat.scheduler.operate.admin.ManualTriggers;
import dev.onebeat.scheduler.operate.admin.RuntimeJobs;
import dev.onebeat.scheduler.operate.admin.SchedulePreview;
import dev.onebeat.scheduler.operate.admin.UnknownJobException;
import dev.onebeat.scheduler.web.security.Grants;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The console's jobs: the list ({@code GET /ui/jobs}, searched by name), a job's page with its
 * history and actions ({@code GET /ui/jobs/{name}}), the actions as form posts (pause, resume,
 * trigger, reschedule with a preview, delete) and the form for a new runtime job
 * ({@code /ui/new-job}). Every action goes through the same services as the API, so it is audited and
 * checked the same way; a form with a bad value is shown again with the message next to the field and
 * status 400.
 */
@Controller
class JobPages {

    static final int PAGE_SIZE = 50;
    static final int HISTORY = 50;
    static final int UPCOMING = 5;
    static final int PREVIEW = 10;

    private static final Set<String> SCHEDULE_FIELDS = Set.of("cron", "every", "zone", "gap", "overlap", "misfire");

    private final JobDirectory directory;
    private final Calendars calendars;
    private final JobRegistry registry;
    private final FireLedger ledger;
    private final JobControl control;
    private final ManualTriggers triggers;
    private final RuntimeJobs runtimeJobs;
    private final AuditLog audit;
    private final JobForms forms;
    private final Clock clock;
    private final InstantRuns instantRuns;

    private final JobTimeline timeline;

    JobPages(JobDirectory directory, JobRegistry registry, FireLedger ledger, JobControl control,
             ManualTriggers triggers, RuntimeJobs runtimeJobs, AuditLog audit, JobForms forms, Clock clock,
             InstantRuns instantRuns, JobTimeline timeline, Calendars calendars) {
        this.calendars = calendars;
        this.timeline = timeline;
        this.instantRuns = instantRuns;
        this.directory = directory;
        this.registry = registry;
        this.ledger = ledger;
        this.control = control;
        this.triggers = triggers;
        this.runtimeJobs = runtimeJobs;
        this.audit = audit;
        this.forms = forms;
        this.clock = clock;
    }

    @GetMapping({"/ui/jobs", "/ui/jobs/"})
    String jobs(@RequestParam(required = false) String q, @RequestParam(required = false) String namespace,
                @RequestParam(defaultValue = "0") int page, Model model) {
        model.addAttribute("page", "jobs");
        model.addAttribute("q", q == null ? "" : q);
        model.addAttribute("namespace", namespace == null ? "" : namespace);
        JobDirectory.JobPage result = directory.search(q, Grants.current().scope(namespace), Pager.clamp(page),
                PAGE_SIZE);
        model.addAttribute("result", result);
        model.addAttribute("pager", Pager.of(result.page(), result.hasMore()));
        return "jobs";
    }

    /**
     * @param trigger shows only the fires of that kind ({@code scheduled}, {@code manual}, ...) when set
     * @param outcome shows only the attempts that ended so ({@code committed}, {@code failed}, ...) when set
     */
    @GetMapping("/ui/jobs/{name}")
    String job(@PathVariable String name, @RequestParam(required = false) String trigger,
               @RequestParam(required = false) String outcome, Model model) {
        JobView job = known(name);
        String kind = oneOf("trigger", trigger, FireFilter.TRIGGERS);
        String ended = oneOf("outcome", outcome, FireFilter.OUTCOMES);
        model.addAttribute("outcome", ended == null ? "" : ended);
        model.addAttribute("outcomes", FireFilter.OUTCOMES);
        return jobPage(job, kind, ended, JobForms.ScheduleForm.of(registry.find(name).map(RegisteredJob::job)
                .orElse(null)), Map.of(), model);
    }

    private static String oneOf(String field, String value, List<String> accepted) {
        String given = JobForms.blankToNull(value);
        if (given != null && !accepted.contains(given)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, field + ": '" + value + "' is not one of " + accepted);
        }
        return given;
    }

    /**
     * @param reason why, optional
     * @param pauseFor how long, as configuration writes a duration ({@code 30m}, {@code 2h}); empty for a pause
     *     only a resume ends
     */
    @PostMapping("/ui/jobs/{name}/pause")
    String pause(@PathVariable String name, @RequestParam(required = false) String reason,
                 @RequestParam(name = "for", required = false) String pauseFor, RedirectAttributes flash) {
        String length = JobForms.blankToNull(pauseFor);
        Duration duration;
        try {
            duration = length == null ? null : Durations.parse(length);
        } catch (IllegalArgumentException e) {
            flash.addFlashAttribute("problem", "for: '" + pauseFor + "' is not a duration such as 30m or 2h");
            return redirect(name);
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            flash.addFlashAttribute("problem", "for: '" + pauseFor + "' must be longer than nothing");
            return redirect(name);
        }
        Instant until = duration == null ? null : clock.instant().plus(duration).truncatedTo(ChronoUnit.SECONDS);
        return act(name, flash, () -> {
            JobControl.JobState state = control.pause(name, reason, until);
            return "Paused: " + name + (state.until() == null ? " fires no more until resumed, on every replica."
                    : " fires again from " + Formats.utc(state.until()) + " UTC, on every replica.");
        });
    }

    @PostMapping("/ui/jobs/{name}/resume")
    String resume(@PathVariable String name, RedirectAttributes flash) {
        return act(name, flash, () -> control.resume(name).paused() ? name + " is still paused."
                : "Resumed: " + name + " fires on its schedule again.");
    }

    /** Re-runs an instant that failed for good or was skipped (a button on its row of the history). */
    @PostMapping("/ui/jobs/{name}/instants/{instant}/run")
    String rerun(@PathVariable String name, @PathVariable String instant, RedirectAttributes flash) {
        Instant at;
        try {
            at = Instant.parse(instant);
        } catch (DateTimeParseException e) {
            flash.addFlashAttribute("problem", "instant: '" + instant + "' is not an instant");
            return redirect(name);
        }
        return act(name, flash, () -> "Re-running " + name + " for " + Formats.utc(at) + " UTC, attempt "
                + instantRuns.rerun(name, at).attempt() + ".");
    }

    /** The form carries a request id made when the page was drawn: a second submit of it fires nothing new. */
    @PostMapping("/ui/jobs/{name}/trigger")
    String trigger(@PathVariable String name, @RequestParam(required = false) String requestId,
                   RedirectAttributes flash) {
        if (requestId == null || requestId.isBlank() || requestId.length() > 100) {
            flash.addFlashAttribute("problem", "The trigger form had no valid request id; reload the page and try again.");
            return redirect(name);
        }
        return act(name, flash, () -> {
            ManualTriggers.Receipt receipt = triggers.trigger(name, requestId);
            return "Triggered: " + name + " fires now for " + Formats.utc(receipt.scheduledAt())
                    + " UTC (request " + receipt.requestId() + "; sending the same form again fires nothing new).";
        });
    }

    /** Previews ({@code action=preview}) or saves a new schedule; an admin action. */
    @PostMapping("/ui/jobs/{name}/schedule")
    String reschedule(@PathVariable String name, @ModelAttribute JobForms.ScheduleForm form,
                      @RequestParam(defaultValue = "save") String action, Model model, RedirectAttributes flash,
                      HttpServletResponse response) {
        JobView job = known(name);
        try {
            if (action.equals("preview")) {
                PeriodicJob registered = registry.find(name).map(RegisteredJob::job).orElse(null);
                model.addAttribute("preview", SchedulePreview.of(form.fields(), clock.instant(), PREVIEW,
                        moves(registered), registered == null ? SchedulePreview.NO_EXCLUSION
                                : calendars.exclusions(registered)));
                return jobPage(job, null, null, form, Map.of(), model);
            }
            runtimeJobs.reschedule(name, form.fields(), JobForms.blankToNull(form.misfire()));
        } catch (JobDefinitionException e) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return jobPage(job, null, null, form, FieldErrors.of(e.getMessage(), SCHEDULE_FIELDS), model);
        } catch (AdminConflictException | NamespaceLimitException e) {
            response.setStatus(HttpStatus.CONFLICT.value());
            return jobPage(job, null, null, form, Map.of(FieldErrors.FORM, e.getMessage()), model);
        }
        flash.addFlashAttribute("notice", "Rescheduled: " + name + " now runs "
                + registry.find(name).map(registered -> registered.job().schedule().describe()).orElse("as saved") + ".");
        return redirect(name);
    }

    @PostMapping("/ui/jobs/{name}/delete")
    String delete(@PathVariable String name, RedirectAttributes flash) {
        try {
            runtimeJobs.delete(name);
        } catch (AdminConflictException | JobDefinitionException e) {
            flash.addFlashAttribute("problem", e.getMessage());
            return redirect(name);
        } catch (UnknownJobException e) {
            throw notFound(name);
        }
        flash.addFlashAttribute("notice", "Deleted: runtime job " + name + ".");
        return "redirect:/ui/jobs";
    }



    /**
     * @param trigger the trigger kind the history shows, null for all
     * @param outcome the outcome of the attempts it shows, null for all
     */
    private String jobPage(JobView job, String trigger, String outcome, JobForms.ScheduleForm form,
                           Map<String, String> errors, Model model) {
        model.addAttribute("page", "jobs");
        model.addAttribute("job", job);
        model.addAttribute("trigger", trigger == null ? "" : trigger);
        model.addAttribute("fires", ledger.history(new FireFilter(job.name(), outcome, trigger, null, null, HISTORY)));
        model.addAttribute("triggers", FireFilter.TRIGGERS);
        model.addAttribute("misfires", JobForms.MISFIRES);
        model.addAttribute("dstChoices", JobForms.DST_CHOICES);
        model.addAttribute("dst", dst(job.name()));
        model.addAttribute("upcoming", job.paused() ? List.of() : upcoming(job.name()));
        model.addAttribute("scheduleForm", form);
        model.addAttribute("errors", errors);
        model.addAttribute("audit", audit.page(job.name(), null, Grants.current().scope(null), 10, 0));
        model.addAttribute("requestId", UUID.randomUUID().toString());
        PeriodicJob registered = registry.find(job.name()).map(RegisteredJob::job).orElse(null);
        model.addAttribute("timeline", registered == null ? null : timeline.of(registered));
        model.addAttribute("alerts", registered == null ? null : timeline.alerts(registered));
        return "job";
    }

    /** The next fires of the job's current schedule, in its zone; none while it is paused. */
    private List<SchedulePreview.Fire> upcoming(String name) {
        PeriodicJob job = registry.find(name).map(RegisteredJob::job).orElse(null);
        if (job == null) {
            return List.of();
        }
        Schedule schedule = job.schedule();
        return SchedulePreview.of(schedule, clock.instant(), UPCOMING, moves(job), calendars.exclusions(job)).fires();
    }

    /** @return what moves the job's fires past their instants (its jitter and spread); none for an unknown job */
    private static SchedulePreview.Moves moves(PeriodicJob job) {
        return job == null ? SchedulePreview.Moves.NONE
                : new SchedulePreview.Moves(job.name(), job.jitter(), job.spread());
    }

    /**
     * @return the daylight-saving policy of the job's schedule as this replica registers it
     *         ({@code gap=shift overlap=first}), null for an interval or a job not registered here
     */
    private String dst(String name) {
        Schedule schedule = registry.find(name).map(registered -> registered.job().schedule()).orElse(null);
        return schedule instanceof Schedule.Cron cron ? cron.dst().toString() : null;
    }

    private JobView known(String name) {
        return directory.find(name).orElseThrow(() -> notFound(name));
    }

    private String act(String name, RedirectAttributes flash, Supplier<String> action) {
        try {
            flash.addFlashAttribute("notice", action.get());
        } catch (AdminConflictException | JobDefinitionException e) {
            flash.addFlashAttribute("problem", e.getMessage());
        } catch (UnknownJobException e) {
            throw notFound(name);
        }
        return redirect(name);
    }

    private static String redirect(String name) {
        return "redirect:" + UriComponentsBuilder.fromPath("/ui/jobs/{name}").buildAndExpand(name).encode().toUriString();
    }

    private static ResponseStatusException notFound(String name) {
        return new ResponseStatusException(HttpStatus.NOT_FOUND, "no job named '" + name + "'");
    }
}
