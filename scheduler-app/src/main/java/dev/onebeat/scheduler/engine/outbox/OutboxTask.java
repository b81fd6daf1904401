package dev.onebeat.scheduler.engine.outbox;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.transport.TaskPayload;
import dev.onebeat.transport.TraceContext;
import java.time.Instant;
import java.util.Objects;
import tools.jackson.databind.json.JsonMapper;

/**
 * One task ready to be written to the outbox.
 *
 * @param key its idempotency key
 * @param task task name
 * @param queue queue name
 * @param entity business entity, or {@code null}
 * @param payload its arguments and delivery options; {@link OutboxWriter} stores it as its JSON
 * @param notBefore earliest hand-over, or {@code null} for "as soon as committed"
 */
public record OutboxTask(IdempotencyKey key, String task, String queue, Entity entity, TaskPayload payload,
                         Instant notBefore) {

    /** The queue of onebeat's own alert deliveries, which no job may dispatch to. */
    public static final String RESERVED_QUEUE = "onebeat.alerts";

    public OutboxTask {
        Objects.requireNonNull(key, "key must not be null");
        Objects.requireNonNull(payload, "payload must not be null");
    }

    /**
     * The task a fire writes for a job's request: the fire hands over what the job asked for, the outbox makes
     * the payload, so the fire never sees the stored form.
     *
     * @param key the task's idempotency key
     * @param request what the job dispatched; its arguments checked to be JSON values already ({@link JsonValues})
     * @param expiresFrom when the task's expiry counts from, if not from the fire's scheduled instant; or null
     * @param json writes the arguments
     * @param maxArgumentBytes the most the payload may take as JSON ({@link TaskArguments})
     * @param traceparent the W3C context of the fire's span, which the task's trace continues; or null
     * @param tracestate its W3C tracestate, or null
     * @return the task
     * @throws IllegalArgumentException naming the task and both sizes when the payload is over the bound
     */
    public static OutboxTask of(IdempotencyKey key, TaskRequest request, Instant expiresFrom, JsonMapper json,
                                long maxArgumentBytes, String traceparent, String tracestate) {
        TaskPayload payload = new TaskPayload(json.writeValueAsString(request.args()),
                json.writeValueAsString(request.kwargs()), request.delivery(), expiresFrom,
                TraceContext.lenient(traceparent, tracestate));
        TaskArguments.requireWithin(payload, request.task(), maxArgumentBytes);
        return new OutboxTask(key, request.task(), request.queue(), request.entity(), payload, request.notBefore());
    }
}
