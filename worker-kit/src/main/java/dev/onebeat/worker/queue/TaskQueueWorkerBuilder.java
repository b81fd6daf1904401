package dev.onebeat.worker.queue;

import dev.onebeat.worker.Backoff;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/** Configures a {@link TaskQueueWorker}; {@link #build()} checks every value. */
public final class TaskQueueWorkerBuilder {

    private final DataSource dataSource;
    private String consumer;
    private final List<String> queues = new ArrayList<>();
    private final Map<String, TaskHandler> handlers = new LinkedHashMap<>();
    private int concurrency = WorkerSettings.DEFAULT_CONCURRENCY;
    private int batchSize = WorkerSettings.DEFAULT_BATCH_SIZE;
    private Duration lease = WorkerSettings.DEFAULT_LEASE;
    private int maxAttempts = WorkerSettings.DEFAULT_MAX_ATTEMPTS;
    private Duration backoffBase = WorkerSettings.DEFAULT_BACKOFF.base();
    private Duration backoffMax = WorkerSettings.DEFAULT_BACKOFF.max();
    private Duration pollInterval = WorkerSettings.DEFAULT_POLL_INTERVAL;
    private Duration shutdownTimeout = WorkerSettings.DEFAULT_SHUTDOWN_TIMEOUT;
    private WorkerMetrics metrics = WorkerMetrics.NOOP;
    private boolean heartbeat = true;
    private boolean journal = true;
    private int tasksPerTransaction = WorkerSettings.DEFAULT_TASKS_PER_TRANSACTION;

    TaskQueueWorkerBuilder(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The journal's consumer name: workers sharing it share processed keys. Required. */
    public TaskQueueWorkerBuilder consumer(String consumer) {
        this.consumer = consumer;
        return this;
    }

    /** Adds queues to claim from. At least one is required. */
    public TaskQueueWorkerBuilder queues(String... queues) {
        this.queues.addAll(Arrays.asList(Objects.requireNonNull(queues, "queues must not be null")));
        return this;
    }

    /** Runs tasks named {@code task} with {@code handler}. At least one is required. */
    public TaskQueueWorkerBuilder handler(String task, TaskHandler handler) {
        Objects.requireNonNull(task, "task must not be null");
        Objects.requireNonNull(handler, "handler for task '" + task + "' must not be null");
        if (handlers.putIfAbsent(task, handler) != null) {
            throw new IllegalArgumentException("handler for task '" + task + "' is already registered");
        }
        return this;
    }

    /** Handler threads; default 4. */
    public TaskQueueWorkerBuilder concurrency(int concurrency) {
        this.concurrency = concurrency;
        return this;
    }

    /** Most tasks claimed by one statement; default 10. */
    public TaskQueueWorkerBuilder batchSize(int batchSize) {
        this.batchSize = batchSize;
        return this;
    }

    /** How long a claim holds without a heartbeat; default 30 s, at least 300 ms. */
    public TaskQueueWorkerBuilder lease(Duration lease) {
        this.lease = lease;
        return this;
    }

    /** Attempts before a task is set {@code dead}; default 10. */
    public TaskQueueWorkerBuilder maxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
        return this;
    }

    /** Retry n waits a random time up to {@code min(max, base * 2^(n-1))}; default 1 s, 10 min. */
    public TaskQueueWorkerBuilder backoff(Duration base, Duration max) {
        this.backoffBase = base;
        this.backoffMax = max;
        return this;
    }

    /** The wait after a claim that found fewer tasks than asked for; default 500 ms. */
    public TaskQueueWorkerBuilder pollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
        return this;
    }

    /** How long {@link TaskQueueWorker#close()} waits for running tasks; default 30 s. */
    public TaskQueueWorkerBuilder shutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
        return this;
    }

    /** Where processed, duplicate, retried and dead tasks are counted; default none. */
    public TaskQueueWorkerBuilder metrics(WorkerMetrics metrics) {
        this.metrics = metrics;
        return this;
    }

    /**
     * Whether each task's key is also written to the processed-key journal ({@code onebeat_processed})
     * in the task's transaction; default on. The fenced done mark already makes a claimed task's
     * effect commit once; the journal adds key-level protection: a task re-inserted under a key this
     * consumer processed before (a re-run fire, a task copied from a broker) is skipped as a duplicate.
     * Off saves one insert per task.
     */
    public TaskQueueWorkerBuilder journal(boolean journal) {
        this.journal = journal;
        return this;
    }

    /**
     * How many claimed tasks a thread runs in one transaction; default 1. A group marks its tasks
     * done and journals their keys in two statements, runs the handlers and commits once, so n
     * tasks cost one commit and a few round trips instead of n commits. If any handler of the group
     * fails, the group rolls back and its tasks run again one per transaction, so the failure is
     * retried alone; a handler can thus run twice for one attempt (only a committed run counts,
     * which is why side effects belong in the effect outbox). The tasks of a group commit when the
     * slowest is done; if the worker dies, the whole group runs again, each task still once. At most
     * {@code batchSize}.
     */
    public TaskQueueWorkerBuilder tasksPerTransaction(int tasksPerTransaction) {
        this.tasksPerTransaction = tasksPerTransaction;
        return this;
    }

    /** Off only in tests that need a lease to run out under a live worker. */
    TaskQueueWorkerBuilder heartbeat(boolean heartbeat) {
        this.heartbeat = heartbeat;
        return this;
    }

    /**
     * @return a worker, not started
     * @throws IllegalArgumentException or NullPointerException naming the first bad value
     */
    public TaskQueueWorker build() {
        return new TaskQueueWorker(new WorkerSettings(dataSource, consumer, queues, handlers, concurrency,
                batchSize, lease, maxAttempts, new Backoff(backoffBase, backoffMax), pollInterval,
                shutdownTimeout, metrics, heartbeat, journal, tasksPerTransaction));
    }
}
