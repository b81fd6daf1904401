package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.operate.admin.AdminConflictException;
import dev.onebeat.scheduler.operate.admin.TaskAdmin;
import dev.onebeat.scheduler.operate.admin.UnknownTaskException;
import dev.onebeat.scheduler.web.security.Grants;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.servlet.view.RedirectView;

/**
 * The console's tasks: the outbox by status, queue and job ({@code GET /ui/tasks}), newest first, with
 * retry (failed or dead → pending) and discard (pending or failed → dead) as form posts. A post returns
 * to the list it came from.
 */
@Controller
@RequestMapping("/ui/tasks")
class TaskPages {

    static final int PAGE_SIZE = 50;

    private final TaskAdmin tasks;

    TaskPages(TaskAdmin tasks) {
        this.tasks = tasks;
    }

    @GetMapping({"", "/"})
    String tasks(@RequestParam(required = false) String status, @RequestParam(required = false) String queue,
                 @RequestParam(required = false) String job, @RequestParam(required = false) String namespace,
                 @RequestParam(defaultValue = "0") int page, Model model, HttpServletRequest request) {
        String wanted = JobForms.blankToNull(status);
        if (wanted != null && !TaskAdmin.STATUSES.contains(wanted)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "status: '" + status + "' is not one of "
                    + TaskAdmin.STATUSES);
        }
        int from = Pager.clamp(page);
        TaskAdmin.TaskPage result = tasks.page(wanted, JobForms.blankToNull(queue), JobForms.blankToNull(job),
                Grants.current().scope(namespace), PAGE_SIZE, from * PAGE_SIZE);
        model.addAttribute("page", "tasks");
        model.addAttribute("statuses", TaskAdmin.STATUSES);
        model.addAttribute("status", wanted == null ? "" : wanted);
        model.addAttribute("queue", queue == null ? "" : queue);
        model.addAttribute("job", job == null ? "" : job);
        model.addAttribute("namespace", namespace == null ? "" : namespace);
        model.addAttribute("result", result);
        // where retry and discard return to: this list, filters kept
        model.addAttribute("here", request.getQueryString() == null ? request.getRequestURI()
                : request.getRequestURI() + "?" + request.getQueryString());
        model.addAttribute("pager", Pager.of(from, result.hasMore()));
        return "tasks";
    }

    @PostMapping("/{id}/retry")
    RedirectView retry(@PathVariable long id, @RequestParam(required = false) String back, RedirectAttributes flash) {
        return act(id, back, flash, () -> {
            tasks.retry(id);
            return "Task " + id + " is pending again and will run (or be published) again shortly, with all its attempts.";
        });
    }

    @PostMapping("/{id}/discard")
    RedirectView discard(@PathVariable long id, @RequestParam(required = false) String back, RedirectAttributes flash) {
        return act(id, back, flash, () -> {
            tasks.discard(id);
            return "Task " + id + " is discarded (dead); it will not be published.";
        });
    }

    private static RedirectView act(long id, String back, RedirectAttributes flash, Supplier<String> action) {
        try {
            flash.addFlashAttribute("notice", action.get());
        } catch (AdminConflictException e) {
            flash.addFlashAttribute("problem", e.getMessage());
        } catch (UnknownTaskException e) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, e.getMessage());
        }
        RedirectView list = new RedirectView(returnTo(back), true);
        // the list's own query string, braces included, is not a URI template
        list.setExpandUriTemplateVariables(false);
        return list;
    }

    /** Only a console tasks list is a place to return to: anything else would make this an open redirect. */
    static String returnTo(String back) {
        if (back != null && back.startsWith("/ui/tasks") && !back.contains("//") && !back.contains("\\")) {
            return back;
        }
        return "/ui/tasks";
    }
}
