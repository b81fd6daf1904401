package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.operate.backfill.Backfill;
import dev.onebeat.scheduler.operate.backfill.Backfills;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/jobs/{name}/backfill} (a dry run lists the range's instants and their outcomes; otherwise a
 * backfill starts, 202), {@code GET /api/jobs/{name}/backfills[/{id}]} and
 * {@code POST /api/jobs/{name}/backfills/{id}/cancel}.
 */
@RestController
@RequestMapping("/api/jobs/{name}")
class BackfillController {

    private static final int LISTED = 50;

    private final Backfills backfills;

    BackfillController(Backfills backfills) {
        this.backfills = backfills;
    }

    /**
     * @param from the range's start, inclusive
     * @param to the range's end, exclusive, not in the future
     * @param dryRun list the instants without firing any (default false)
     */
    record BackfillBody(Instant from, Instant to, Boolean dryRun) {
    }

    @PostMapping("/backfill")
    ResponseEntity<Backfills.Plan> backfill(@PathVariable String name, @RequestBody BackfillBody body) {
        boolean dryRun = Boolean.TRUE.equals(body.dryRun());
        Backfills.Plan plan = backfills.start(name, body.from(), body.to(), dryRun);
        return ResponseEntity.status(dryRun ? HttpStatus.OK : HttpStatus.ACCEPTED).body(plan);
    }

    /** @return the job's latest backfills, newest first, with their progress */
    @GetMapping("/backfills")
    List<Backfill> list(@PathVariable String name) {
        return backfills.list(name, LISTED);
    }

    @GetMapping("/backfills/{id}")
    Backfill find(@PathVariable String name, @PathVariable long id) {
        return backfills.find(name, id);
    }

    @PostMapping("/backfills/{id}/cancel")
    Backfill cancel(@PathVariable String name, @PathVariable long id) {
        return backfills.cancel(name, id);
    }
}
