package dev.onebeat.scheduler.api;

import dev.onebeat.scheduler.admin.LockTable;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/locks}: the job locks in ShedLock's table. */
@RestController
class LocksController {

    private final LockTable locks;

    LocksController(LockTable locks) {
        this.locks = locks;
    }

    @GetMapping("/api/locks")
    List<LockTable.Lock> locks() {
        return locks.all();
    }
}
