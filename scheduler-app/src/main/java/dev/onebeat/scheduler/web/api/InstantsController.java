package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.operate.admin.UnknownJobException;
import dev.onebeat.scheduler.operate.monitor.ExpectedInstants;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import java.time.Instant;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/jobs/{name}/instants?from=&to=&limit=}: expected against actual, every instant the job's schedule
 * expected in the range with its outcome ({@code on-time}, {@code late}, {@code failed}, {@code retrying},
 * {@code skipped}, {@code missed}, {@code pending}, {@code running}), the runs outside the schedule and the
 * detector's events. Without {@code from}, the latest {@code limit} instants of the day before {@code to}; without
 * {@code to}, up to now.
 */
@RestController
@RequestMapping("/api/jobs")
class InstantsController {

    private final JobRegistry registry;
    private final ExpectedInstants instants;

    InstantsController(JobRegistry registry, ExpectedInstants instants) {
        this.registry = registry;
        this.instants = instants;
    }

    @GetMapping("/{name}/instants")
    ExpectedInstants.Timeline instants(@PathVariable String name,
                                       @RequestParam(required = false) Instant from,
                                       @RequestParam(required = false) Instant to,
                                       @RequestParam(defaultValue = "500") int limit) {
        InstantParameters.check("from", from);
        InstantParameters.check("to", to);
        RegisteredJob job = registry.find(name).orElseThrow(() -> new UnknownJobException(name));
        return instants.of(job.job(), from, to, limit);
    }
}
