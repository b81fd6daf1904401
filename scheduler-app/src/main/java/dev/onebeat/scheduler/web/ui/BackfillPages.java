package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.operate.admin.AdminConflictException;
import dev.onebeat.scheduler.operate.backfill.Backfill;
import dev.onebeat.scheduler.operate.backfill.Backfills;
import dev.onebeat.scheduler.operate.admin.UnknownJobException;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The backfill form and cancel button of a job's page: a dry run says how many instants of the range would fire,
 * a backfill starts one, whose progress the page shows (the same service as {@code POST /api/jobs/{name}/backfill}).
 */
@Controller
class BackfillPages {

    private final Backfills backfills;

    BackfillPages(Backfills backfills) {
        this.backfills = backfills;
    }

    /**
     * @param from the range's start, an ISO instant
     * @param to its end, an ISO instant
     * @param dryRun {@code true} to list only
     */
    @PostMapping("/ui/jobs/{name}/backfill")
    String backfill(@PathVariable String name, @RequestParam(required = false) String from,
                    @RequestParam(required = false) String to, @RequestParam(defaultValue = "false") boolean dryRun,
                    RedirectAttributes flash) {
        Instant start;
        Instant end;
        try {
            start = instant("from", from);
            end = instant("to", to);
        } catch (JobDefinitionException e) {
            flash.addFlashAttribute("problem", e.getMessage());
            return redirect(name);
        }
        return act(name, flash, () -> {
            Backfills.Plan plan = backfills.start(name, start, end, dryRun);
            String range = Formats.utc(start) + " to " + Formats.utc(end) + " UTC";
            return dryRun ? "Dry run: " + plan.instants().size() + " instants from " + range + ", " + plan.toFire()
                    + " without a committed fire would fire. Nothing was started."
                    : "Backfill " + plan.backfill().id() + " started: " + plan.toFire() + " of "
                    + plan.backfill().total() + " instants from " + range + " to fire, oldest first.";
        });
    }

    @PostMapping("/ui/jobs/{name}/backfills/{id}/cancel")
    String cancel(@PathVariable String name, @PathVariable long id, RedirectAttributes flash) {
        return act(name, flash, () -> {
            Backfill backfill = backfills.cancel(name, id);
            return "Backfill " + id + " cancelled after " + backfill.done() + " of " + backfill.total() + " instants.";
        });
    }

    private static Instant instant(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new JobDefinitionException(field + ": is missing; give an instant such as 2027-01-01T00:00:00Z");
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new JobDefinitionException(field + ": '" + text + "' is not an instant such as 2027-01-01T00:00:00Z");
        }
    }

    private static String act(String name, RedirectAttributes flash, Supplier<String> action) {
        try {
            flash.addFlashAttribute("notice", action.get());
        } catch (AdminConflictException | JobDefinitionException e) {
            flash.addFlashAttribute("problem", e.getMessage());
        } catch (UnknownJobException e) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, e.getMessage());
        }
        return redirect(name);
    }

    private static String redirect(String name) {
        return "redirect:" + UriComponentsBuilder.fromPath("/ui/jobs/{name}").buildAndExpand(name).encode().toUriString();
    }
}
