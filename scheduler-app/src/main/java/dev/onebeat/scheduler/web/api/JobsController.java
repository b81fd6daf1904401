package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.fire.FireFilter;
import dev.onebeat.scheduler.engine.fire.FireLedger;
import dev.onebeat.scheduler.engine.fire.FireRecord;
import dev.onebeat.scheduler.operate.admin.JobDirectory;
import dev.onebeat.scheduler.operate.admin.JobView;
import dev.onebeat.scheduler.operate.admin.UnknownJobException;
import dev.onebeat.scheduler.web.security.Grants;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code GET /api/jobs} (searched by name, paged), {@code GET /api/jobs/{name}} and its fires, filtered by
 * outcome, trigger kind and scheduled instant.
 */
@RestController
@RequestMapping("/api/jobs")
class JobsController {

    private final JobDirectory directory;
    private final FireLedger ledger;

    JobsController(JobDirectory directory, FireLedger ledger) {
        this.directory = directory;
        this.ledger = ledger;
    }

    @GetMapping
    JobDirectory.JobPage jobs(@RequestParam(required = false) String q,
                              @RequestParam(required = false) String namespace,
                              @RequestParam(defaultValue = "0") @Min(0) int page,
                              @RequestParam(defaultValue = "50") @Min(1) @Max(500) int size) {
        return directory.search(q, Grants.current().scope(namespace), page, size);
    }

    @GetMapping("/{name}")
    JobView job(@PathVariable String name) {
        return directory.find(name).orElseThrow(() -> new UnknownJobException(name));
    }

    /**
     * @param outcome one of {@link FireFilter#OUTCOMES}, or all
     * @param trigger one of {@link FireFilter#TRIGGERS}, or all
     * @param from fires scheduled at or after this instant, inclusive
     * @param to fires scheduled before this instant, exclusive
     */
    @GetMapping("/{name}/fires")
    List<FireRecord> fires(@PathVariable String name,
                           @RequestParam(defaultValue = "20") @Min(1) @Max(1000) int limit,
                           @RequestParam(required = false) String outcome,
                           @RequestParam(required = false) String trigger,
                           @RequestParam(required = false) Instant from,
                           @RequestParam(required = false) Instant to) {
        requireOneOf("outcome", outcome, FireFilter.OUTCOMES);
        requireOneOf("trigger", trigger, FireFilter.TRIGGERS);
        InstantParameters.check("from", from);
        InstantParameters.check("to", to);
        if (from != null && to != null && !from.isBefore(to)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "from: " + from + " must be before to, " + to);
        }
        if (directory.find(name).isEmpty()) {
            throw new UnknownJobException(name);
        }
        return ledger.history(new FireFilter(name, outcome, trigger, from, to, limit));
    }

    private static void requireOneOf(String parameter, String value, List<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    parameter + ": '" + value + "' is not one of " + allowed);
        }
    }
}
