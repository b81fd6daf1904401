package dev.onebeat.scheduler.api;

import dev.onebeat.scheduler.admin.JobDirectory;
import dev.onebeat.scheduler.admin.JobView;
import dev.onebeat.scheduler.admin.UnknownJobException;
import dev.onebeat.scheduler.fire.FireLedger;
import dev.onebeat.scheduler.fire.FireRecord;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/jobs} (searched by name, paged), {@code GET /api/jobs/{name}} and its fires. */
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
                              @RequestParam(defaultValue = "0") @Min(0) int page,
                              @RequestParam(defaultValue = "50") @Min(1) @Max(500) int size) {
        return directory.search(q, page, size);
    }

    @GetMapping("/{name}")
    JobView job(@PathVariable String name) {
        return directory.find(name).orElseThrow(() -> new UnknownJobException(name));
    }

    @GetMapping("/{name}/fires")
    List<FireRecord> fires(@PathVariable String name,
                           @RequestParam(defaultValue = "20") @Min(1) @Max(1000) int limit) {
        if (directory.find(name).isEmpty()) {
            throw new UnknownJobException(name);
        }
        return ledger.history(name, limit);
    }
}
