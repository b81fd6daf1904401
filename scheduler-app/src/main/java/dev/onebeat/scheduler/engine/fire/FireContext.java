package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.JobContext;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.engine.outbox.JsonValues;
import dev.onebeat.scheduler.engine.outbox.OutboxTask;
import dev.onebeat.scheduler.engine.outbox.OutboxWriter;
import dev.onebeat.scheduler.engine.outbox.TaskArguments;
import dev.onebeat.scheduler.engine.trace.W3cContext;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link JobContext} of one fire. Dispatched tasks are buffered and written in batches of
 * {@code batchSize}; {@link #flush()} writes the rest before the fire commits. A fire sharing its
 * transaction with others ({@link BatchFire}) hands its last buffered tasks to the batch instead
 * ({@link #takeBuffered()}), and is told before it first touches the database ({@code beforeFirstWrite}),
 * which is when the batch sets the savepoint that lets this fire alone roll back.
 */
final class FireContext implements JobContext {

    private final String job;
    private final Instant scheduledAt;
    private final String run;
    private final Instant expiresFrom;
    private final W3cContext trace;
    private final Connection connection;
    private final OutboxWriter outbox;
    private final JsonMapper json;
    private final int batchSize;
    private final List<OutboxTask> buffer;
    // keys repeated within one batch would make the single INSERT conflict with itself
    private final Set<String> bufferedKeys = new HashSet<>();
    private final Runnable beforeFirstWrite;
    private final long maxArgumentBytes;
    private boolean written;
    private int dispatched;
    private int inserted;
    private int pendingElsewhere;

    /**
     * @param request the fire: its instant and its run ({@link FireRun}) make the tasks' keys
     * @param expiresFrom when the expiry of the fire's tasks counts from, if not from the instant: the moment
     *     a fire an operator asked for runs ({@link FireTrigger#expiresFromFire}); null for the instant
     * @param trace the fire's span, which its tasks' trace continues; {@link W3cContext#NONE} when tracing is off
     * @param maxArgumentBytes the most a task's payload may take as JSON ({@link TaskArguments})
     */
    FireContext(String job, FireRequest request, Instant expiresFrom, W3cContext trace, Connection connection,
                OutboxWriter outbox, JsonMapper json, int batchSize, long maxArgumentBytes, Runnable beforeFirstWrite) {
        this.trace = trace;
        this.maxArgumentBytes = maxArgumentBytes;
        this.run = request.run();
        this.expiresFrom = expiresFrom;
        this.beforeFirstWrite = beforeFirstWrite;
        this.job = job;
        this.scheduledAt = request.scheduledAt();
        this.connection = GuardedConnection.wrap(connection);
        this.outbox = outbox;
        this.json = json;
        this.batchSize = batchSize;
        // grown as tasks come: most fires dispatch a few. Sized to batchSize up front, the buffer cost each fire 4 KB
        // (an Object[1000]) whatever it dispatched, a third of what a replica allocated firing 100,000 jobs (JFR)
        this.buffer = new ArrayList<>();
    }

    @Override
    public String jobName() {
        return job;
    }

    @Override
    public Instant scheduledAt() {
        return scheduledAt;
    }

    @Override
    public Connection connection() {
        beforeWrite();
        return connection;
    }

    @Override
    public IdempotencyKey keyFor(String task, Entity entity) {
        return IdempotencyKey.of(job, scheduledAt, run, task, entity);
    }

    @Override
    public IdempotencyKey dispatch(TaskRequest request) {
        if (OutboxTask.RESERVED_QUEUE.equals(request.queue())) {
            // its rows are requests the relay sends where they say: only the missed-fire detector writes them
            throw new IllegalArgumentException("queue: '" + request.queue() + "' is onebeat's own (alert deliveries); "
                    + "dispatch to another queue");
        }
        JsonValues.requireJson("args", request.args());
        JsonValues.requireJson("kwargs", request.kwargs());
        IdempotencyKey key = keyFor(request.task(), request.entity());
        dispatched++;
        if (!bufferedKeys.add(key.value())) {
            return key;
        }
        OutboxTask task;
        try {
            task = OutboxTask.of(key, request, expiresFrom, json, maxArgumentBytes, trace.traceparent(),
                    trace.tracestate());
        } catch (IllegalArgumentException e) {
            // not dispatched: a job that catches this and goes on keeps a consistent count
            dispatched--;
            bufferedKeys.remove(key.value());
            throw e;
        }
        buffer.add(task);
        if (buffer.size() >= batchSize) {
            flush();
        }
        return key;
    }

    /** Writes the buffered tasks. */
    void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        beforeWrite();
        inserted += outbox.insert(job, scheduledAt, buffer);
        buffer.clear();
        bufferedKeys.clear();
    }

    /** @return the tasks dispatched and not written yet, which the caller now writes; the buffer is emptied */
    List<OutboxTask> takeBuffered() {
        List<OutboxTask> taken = List.copyOf(buffer);
        pendingElsewhere += taken.size();
        buffer.clear();
        bufferedKeys.clear();
        return taken;
    }

    /** @param rows how many of the tasks taken by {@link #takeBuffered()} were inserted */
    void countInserted(int rows) {
        inserted += rows;
        pendingElsewhere = 0;
    }

    /** @return whether the fire has touched the database (its connection or a write of its tasks) */
    boolean wroteToDatabase() {
        return written;
    }

    private void beforeWrite() {
        if (!written) {
            written = true;
            beforeFirstWrite.run();
        }
    }

    /** @return tasks inserted so far */
    int inserted() {
        return inserted;
    }

    /** @return dispatches that did not insert a row (key seen before, in this fire or an earlier one) */
    int duplicates() {
        return dispatched - inserted - buffer.size() - pendingElsewhere;
    }
}
