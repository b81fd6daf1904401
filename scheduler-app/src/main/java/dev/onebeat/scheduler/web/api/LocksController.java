package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.fire.JobLockTable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/locks?held=&limit=}: the job locks in ShedLock's table, most recently taken first. */
@RestController
class LocksController {

    private final JobLockTable locks;

    LocksController(JobLockTable locks) {
        this.locks = locks;
    }

    /**
     * @param held only the locks held now
     * @param limit at most this many
     */
    @GetMapping("/api/locks")
    List<JobLockTable.Lock> locks(@RequestParam(defaultValue = "false") boolean held,
                               @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
        return locks.latest(held, limit);
    }
}
