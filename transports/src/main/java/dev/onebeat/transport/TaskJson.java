package dev.onebeat.transport;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The plain JSON form of a task, for consumers of your own rather than a worker framework: the body
 * of the {@code amqp}, {@code kafka} and {@code http} transports.
 *
 * <pre>{@code
 * {"task": "billing.close", "args": [], "kwargs": {"region": "eu"}, "job": "close-books",
 *  "scheduled_at": "2026-01-31T23:00:00Z", "idempotency_key": "close-books/2026-01-31T23:00:00Z/0",
 *  "entity": {"type": "customer", "id": "42"}}
 * }</pre>
 *
 * {@code entity} is {@code null} when the task has none. Fields are always written in this order.
 */
public final class TaskJson {

    /** Header with the readable idempotency key. */
    public static final String KEY_HEADER = "idempotency-key";
    /** Header with the job name. */
    public static final String JOB_HEADER = "onebeat-job";
    /** Header with the fire's logical scheduled time, ISO-8601 UTC. */
    public static final String SCHEDULED_AT_HEADER = "onebeat-scheduled-at";
    /** Header with the task name. */
    public static final String TASK_HEADER = "onebeat-task";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private TaskJson() {
    }

    /**
     * @param task a task
     * @return its JSON, UTF-8
     */
    public static byte[] body(OutboundTask task) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("task", task.task());
        body.put("args", JSON.readValue(task.payload().argsJson(), List.class));
        body.put("kwargs", JSON.readValue(task.payload().kwargsJson(), LinkedHashMap.class));
        body.put("job", task.jobName());
        body.put("scheduled_at", task.scheduledAt().toString());
        body.put("idempotency_key", task.key().value());
        Map<String, Object> entity = null;
        if (task.entityType() != null) {
            entity = new LinkedHashMap<>();
            entity.put("type", task.entityType());
            entity.put("id", task.entityId());
        }
        body.put("entity", entity);
        return JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    }
}
