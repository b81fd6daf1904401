package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.scheduler.engine.outbox.TaskTable;
import dev.onebeat.scheduler.engine.outbox.TaskView;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lists outbox tasks and lets an operator retry or discard one. Both changes lock the row first, so
 * they never race a relay that is claiming it (the relay skips locked rows); a task a relay is
 * publishing (its row locked) or has sent, or one a queue worker holds ({@code claimed}), cannot be
 * changed.
 */
@Component
public class TaskAdmin {

    /** Every status of an outbox task, in the order a task passes through them. */
    public static final List<String> STATUSES = List.of("pending", "claimed", "published", "done", "failed", "dead");

    /** The most tasks a page counts. */
    public static final int COUNT_CAP = 10_000;

    private final TaskTable tasks;
    private final AuditLog audit;
    private final TransactionTemplate transactions;

    TaskAdmin(TaskTable tasks, AuditLog audit, TransactionTemplate transactions) {
        this.tasks = tasks;
        this.audit = audit;
        this.transactions = transactions;
    }

    /**
     * A page of tasks. The count stops at {@value #COUNT_CAP}: an outbox of millions is not counted whole on every
     * page.
     *
     * @param total tasks matching the filters, at most {@value #COUNT_CAP}
     * @param totalCapped whether more than {@value #COUNT_CAP} match, so that {@code total} is a lower bound
     * @param hasMore whether tasks match beyond this page
     * @param items this page of them, newest first
     */
    public record TaskPage(long total, boolean totalCapped, boolean hasMore, List<TaskView> items) {
    }

    /** Filters left null match everything; {@code namespaces}, the tasks of these namespaces' jobs only. */
    public TaskPage page(String status, String queue, String job, Collection<String> namespaces, int limit,
                         int offset) {
        long counted = tasks.countMatching(status, queue, job, namespaces, COUNT_CAP);
        List<TaskView> items = tasks.list(status, queue, job, namespaces, limit + 1, offset);
        boolean hasMore = items.size() > limit;
        return new TaskPage(Math.min(counted, COUNT_CAP), counted > COUNT_CAP, hasMore,
                hasMore ? items.subList(0, limit) : items);
    }

    /** @return the name of the job that dispatched the task, if there is such a task */
    public Optional<String> jobOf(long id) {
        return tasks.jobOf(id);
    }

    /**
     * Makes a failed or dead task pending again, due now, with its attempts back to 0: a queue worker
     * runs it again with all of its {@code maxAttempts}, a relay publishes it again starting from its
     * first backoff. Its last error is kept, the attempts it had are in the audit row.
     *
     * @throws UnknownTaskException if there is no such task
     * @throws AdminConflictException if it is not failed or dead
     */
    public TaskView retry(long id) {
        return change(id, "task.retry", Set.of("failed", "dead"), "retried", () -> tasks.retry(id));
    }

    /**
     * Gives up on a pending or failed task: it becomes dead, with who discarded it as its last error.
     *
     * @throws UnknownTaskException if there is no such task
     * @throws AdminConflictException if it is not pending or failed
     */
    public TaskView discard(long id) {
        return change(id, "task.discard", Set.of("pending", "failed"), "discarded",
                () -> tasks.discard(id, Actor.current()));
    }

    private TaskView change(long id, String action, Set<String> from, String verb, Runnable update) {
        return transactions.execute(status -> {
            // the row lock keeps a relay from claiming the task between the check and the update
            TaskView before;
            try {
                before = tasks.lock(id).orElseThrow(() -> new UnknownTaskException(id));
            } catch (CannotAcquireLockException e) {
                throw new AdminConflictException("task " + id + " is being published by a relay or changed by "
                        + "another operator now; try again in a moment");
            }
            if (!from.contains(before.status())) {
                throw new AdminConflictException("task " + id + " is " + before.status() + "; only "
                        + String.join(" or ", from.stream().sorted().toList()) + " tasks can be " + verb);
            }
            update.run();
            TaskView after = tasks.get(id);
            audit.record(action, "task", Long.toString(id), state(before), state(after), null);
            return after;
        });
    }

    private static Map<String, Object> state(TaskView task) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("status", task.status());
        state.put("attempts", task.attempts());
        state.put("availableAt", task.availableAt().toString());
        state.put("lastError", task.lastError());
        return state;
    }
}
