package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.NamespaceLimitException;
import dev.onebeat.scheduler.operate.admin.AdminConflictException;
import dev.onebeat.scheduler.operate.admin.RuntimeJobs;
import dev.onebeat.scheduler.web.security.NamespaceGuard;
import dev.onebeat.scheduler.web.security.Role;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The console's form for a new runtime job: {@code GET /ui/new-job}, {@code POST /ui/jobs}. A mistake shows the form
 * again with the message beside the field it names, in the words start-up uses.
 */
@Controller
class NewJobPage {

    private static final Set<String> JOB_FIELDS = Set.of("name", "cron", "every", "zone", "gap", "overlap", "task",
            "queue", "args", "kwargs", "misfire", "lockAtMostFor", "retryAttempts", "catchUpWindow", "maxCatchUp",
            "overlapPolicy", "jitter", "spread", "calendarsInclude", "calendarsExclude", "activeFrom", "activeUntil",
            "namespace");

    private final RuntimeJobs runtimeJobs;
    private final JobForms forms;

    NewJobPage(RuntimeJobs runtimeJobs, JobForms forms) {
        this.runtimeJobs = runtimeJobs;
        this.forms = forms;
    }

    // not under /ui/jobs/, where it would hide a job named "new"
    @GetMapping("/ui/new-job")
    String newJob(Model model) {
        return newJobPage(JobForms.JobForm.EMPTY, Map.of(), model);
    }

    @PostMapping({"/ui/jobs", "/ui/jobs/"})
    String create(@ModelAttribute JobForms.JobForm form, Model model, RedirectAttributes flash,
                  HttpServletResponse response) {
        Definition definition;
        try {
            Definition asked = forms.toDefinition(form);
            NamespaceGuard.requireToWrite(asked.namespace(), Role.ADMIN);
            definition = runtimeJobs.create(asked);
        } catch (JobDefinitionException e) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return newJobPage(form, FieldErrors.of(e.getMessage(), JOB_FIELDS), model);
        } catch (AdminConflictException e) {
            response.setStatus(HttpStatus.CONFLICT.value());
            return newJobPage(form, FieldErrors.of("name: " + e.getMessage(), JOB_FIELDS), model);
        } catch (NamespaceLimitException e) {
            response.setStatus(HttpStatus.CONFLICT.value());
            return newJobPage(form, FieldErrors.of("namespace: " + e.getMessage(), JOB_FIELDS), model);
        }
        flash.addFlashAttribute("notice", "Created: runtime job " + definition.name() + ".");
        return "redirect:" + UriComponentsBuilder.fromPath("/ui/jobs/{name}").buildAndExpand(definition.name())
                .encode().toUriString();
    }

    private String newJobPage(JobForms.JobForm form, Map<String, String> errors, Model model) {
        model.addAttribute("page", "jobs");
        model.addAttribute("form", form);
        model.addAttribute("dstChoices", JobForms.DST_CHOICES);
        model.addAttribute("errors", errors);
        return "job-new";
    }
}
