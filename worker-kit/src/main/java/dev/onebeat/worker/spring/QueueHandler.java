package dev.onebeat.worker.spring;

import dev.onebeat.worker.queue.TaskHandler;
import java.util.Objects;

/**
 * A handler for the auto-configured queue worker: declare one bean per task name.
 *
 * @param task the task name, as dispatched by the job
 * @param handler what runs it, in the task's transaction
 */
public record QueueHandler(String task, TaskHandler handler) {

    /** Rejects a blank task name or a missing handler. */
    public QueueHandler {
        if (task == null || task.isBlank()) {
            throw new IllegalArgumentException("task must not be blank, was '" + task + "'");
        }
        Objects.requireNonNull(handler, "handler for task '" + task + "' must not be null");
    }
}
