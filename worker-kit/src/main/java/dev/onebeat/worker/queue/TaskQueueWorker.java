package dev.onebeat.worker.queue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes tasks of some queues from {@code onebeat_task}, each in one transaction with its
 * handler's database work, so that a task's effect commits at most once and, while the task keeps
 * being retried, at least once.
 *
 * <p>One poller thread claims due tasks in batches ({@code FOR UPDATE SKIP LOCKED}) under a lease of
 * this worker's id; a pool of {@code concurrency} threads runs them. A heartbeat renews the lease of
 * every task this worker holds every lease/3, so a live worker's long task is not handed to another.
 * If a worker stalls past its lease anyway (a long GC pause, a lost network), another worker claims
 * the task, and the stalled one's done mark, fenced by the claim ({@code locked_by} and {@code attempts}), finds no row: its whole
 * transaction rolls back. A processed-key journal entry ({@code onebeat_processed}) committed with
 * the done mark makes a task re-queued by hand or by another transport a counted duplicate.
 *
 * <p>A failed attempt (an exception from the handler, or no handler for the task's name) is rolled
 * back and the task rescheduled after an exponential backoff with full jitter, or set {@code dead}
 * with its last error once it used {@code maxAttempts}. A worker killed mid-task commits nothing;
 * the task returns after its lease.
 */
public final class TaskQueueWorker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TaskQueueWorker.class);

    private enum State { NEW, RUNNING, CLOSED }

    private final WorkerSettings settings;
    private final String workerId;
    private final TaskStore store;
    private final TaskExecution execution;
    /** Tasks claimed by this worker and not finished: queued in the pool or running. */
    private final Map<Long, QueuedTask> held = new ConcurrentHashMap<>();
    /** Room for {@code concurrency} running groups plus one batch waiting for a thread. */
    private final Semaphore slots;
    private final ThreadPoolExecutor pool;
    private final ScheduledExecutorService heartbeat;
    private final Thread poller;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

    TaskQueueWorker(WorkerSettings settings) {
        this.settings = settings;
        this.workerId = settings.consumer() + ":" + ProcessHandle.current().pid() + ":"
                + UUID.randomUUID().toString().substring(0, 8);
        this.store = new TaskStore(workerId, settings.lease());
        this.execution = new TaskExecution(settings, store, workerId);
        this.slots = new Semaphore(settings.concurrency() * settings.tasksPerTransaction() + settings.batchSize());
        AtomicInteger threadNumber = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(settings.concurrency(), settings.concurrency(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), runnable -> daemon(runnable,
                "onebeat-queue-" + settings.consumer() + "-" + threadNumber.incrementAndGet()));
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(
                runnable -> daemon(runnable, "onebeat-queue-heartbeat-" + settings.consumer()));
        this.poller = daemon(this::poll, "onebeat-queue-poller-" + settings.consumer());
    }

    /**
     * @param dataSource the database holding {@code onebeat_task}; a pool with room for concurrency
     *     + 2 connections
     * @return a builder; {@code consumer}, {@code queues} and one {@code handler} are required
     */
    public static TaskQueueWorkerBuilder builder(DataSource dataSource) {
        return new TaskQueueWorkerBuilder(dataSource);
    }

    /**
     * Starts claiming and running tasks.
     *
     * @throws IllegalStateException if started before, or closed
     */
    public void start() {
        if (!state.compareAndSet(State.NEW, State.RUNNING)) {
            throw new IllegalStateException("worker " + workerId + " was already started or closed");
        }
        if (settings.heartbeat()) {
            long period = Math.max(1, settings.lease().toMillis() / 3);
            heartbeat.scheduleWithFixedDelay(this::extendLeases, period, period, TimeUnit.MILLISECONDS);
        }
        poller.start();
        log.info("queue worker started consumer={} worker={} queues={} concurrency={} lease={}",
                settings.consumer(), workerId, settings.queues(), settings.concurrency(), settings.lease());
    }

    /**
     * Stops claiming, hands tasks claimed but not started back to {@code pending} (their attempt
     * not counted), and waits up to the shutdown timeout for running tasks to finish; the leases of
     * those still running then are left to expire. Idempotent.
     */
    @Override
    public void close() {
        State previous = state.getAndSet(State.CLOSED);
        if (previous == State.CLOSED) {
            return;
        }
        if (previous == State.NEW) {
            pool.shutdownNow();
            heartbeat.shutdownNow();
            return;
        }
        stopping.countDown();
        joinPoller();
        List<Runnable> unstarted = new ArrayList<>();
        pool.getQueue().drainTo(unstarted);
        pool.shutdown();
        release(unstarted);
        try {
            if (!pool.awaitTermination(settings.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("tasks still running at shutdown, their leases will expire consumer={} worker={} tasks={}",
                        settings.consumer(), workerId, held.size());
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            heartbeat.shutdownNow();
        }
        log.info("queue worker stopped consumer={} worker={}", settings.consumer(), workerId);
    }

    /** @return the id this worker writes to {@code locked_by} */
    String workerId() {
        return workerId;
    }

    private void poll() {
        while (stopping.getCount() > 0) {
            int wanted = takeSlots();
            if (wanted == 0) {
                continue;
            }
            List<QueuedTask> tasks;
            try (Connection connection = settings.dataSource().getConnection()) {
                tasks = store.claim(connection, settings.queues(), wanted);
            } catch (SQLException | RuntimeException e) {
                slots.release(wanted);
                log.warn("could not claim tasks consumer={} worker={}", settings.consumer(), workerId, e);
                idle();
                continue;
            }
            slots.release(wanted - tasks.size());
            int group = settings.tasksPerTransaction();
            for (int from = 0; from < tasks.size(); from += group) {
                List<QueuedTask> run = List.copyOf(tasks.subList(from, Math.min(tasks.size(), from + group)));
                run.forEach(task -> held.put(task.id(), task));
                pool.execute(new TaskRun(run));
            }
            if (tasks.size() < wanted) {
                idle();
            }
        }
    }

    /**
     * @return how many tasks to claim: at least a full group, up to a batch; 0 if no group's worth
     *     of room opened within a poll interval (claiming less would split groups into lone tasks)
     */
    private int takeSlots() {
        int group = settings.tasksPerTransaction();
        try {
            if (!slots.tryAcquire(group, settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS)) {
                return 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping.countDown();
            return 0;
        }
        int free = slots.drainPermits();
        int more = Math.min(free, settings.batchSize() - group);
        slots.release(free - more);
        return group + more;
    }

    private void idle() {
        try {
            stopping.await(settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping.countDown();
        }
    }

    private void extendLeases() {
        if (held.isEmpty()) {
            return;
        }
        try (Connection connection = settings.dataSource().getConnection()) {
            store.extendLeases(connection, List.copyOf(held.keySet()));
        } catch (SQLException | RuntimeException e) {
            log.warn("could not extend leases consumer={} worker={} tasks={}", settings.consumer(), workerId,
                    held.size(), e);
        }
    }

    private void joinPoller() {
        try {
            poller.join(settings.pollInterval().toMillis() + Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void release(List<Runnable> unstarted) {
        List<Long> ids = new ArrayList<>(unstarted.size());
        for (Runnable runnable : unstarted) {
            for (QueuedTask task : ((TaskRun) runnable).tasks) {
                held.remove(task.id());
                ids.add(task.id());
            }
        }
        if (ids.isEmpty()) {
            return;
        }
        try (Connection connection = settings.dataSource().getConnection()) {
            int released = store.release(connection, ids);
            log.info("released unstarted tasks consumer={} worker={} tasks={}", settings.consumer(), workerId, released);
        } catch (SQLException e) {
            log.warn("could not release unstarted tasks, they return after their lease consumer={} worker={} tasks={}",
                    settings.consumer(), workerId, ids.size(), e);
        }
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    private final class TaskRun implements Runnable {

        private final List<QueuedTask> tasks;

        TaskRun(List<QueuedTask> tasks) {
            this.tasks = tasks;
        }

        @Override
        public void run() {
            try {
                execution.execute(tasks);
            } catch (RuntimeException e) {
                log.error("task run failed outside its transaction consumer={} tasks={} firstKey={}",
                        settings.consumer(), tasks.size(), tasks.get(0).idempotencyKey(), e);
            } finally {
                for (QueuedTask task : tasks) {
                    // a stalled claim must not drop the entry of a newer claim of the same task
                    held.remove(task.id(), task);
                }
                slots.release(tasks.size());
            }
        }
    }
}
