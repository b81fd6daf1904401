package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.outbox.TaskView;
import dev.onebeat.scheduler.operate.admin.TaskAdmin;
import dev.onebeat.scheduler.web.security.Grants;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** {@code GET /api/tasks}, {@code POST /api/tasks/{id}/retry} and {@code /discard}. */
@RestController
@RequestMapping("/api/tasks")
class TasksController {

    private final TaskAdmin tasks;

    TasksController(TaskAdmin tasks) {
        this.tasks = tasks;
    }

    @GetMapping
    TaskAdmin.TaskPage tasks(@RequestParam(required = false) String status,
                             @RequestParam(required = false) String queue,
                             @RequestParam(required = false) String job,
                             @RequestParam(required = false) String namespace,
                             @RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit,
                             @RequestParam(defaultValue = "0") @Min(0) int offset) {
        if (status != null && !TaskAdmin.STATUSES.contains(status)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "status: '" + status + "' is not one of "
                    + TaskAdmin.STATUSES.stream().sorted().toList());
        }
        return tasks.page(status, queue, job, Grants.current().scope(namespace), limit, offset);
    }

    @PostMapping("/{id}/retry")
    TaskView retry(@PathVariable long id) {
        return tasks.retry(id);
    }

    @PostMapping("/{id}/discard")
    TaskView discard(@PathVariable long id) {
        return tasks.discard(id);
    }
}
