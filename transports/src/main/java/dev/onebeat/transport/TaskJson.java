package dev.onebeat.transport;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.util.ByteArrayBuilder;
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
     * Writes the body in one pass: the arguments' tokens are copied from the stored text to the output, never built
     * as lists and maps (that was most of the Kafka relay's encoding time), and come out as a mapper writes them,
     * compact, numbers as Java reads them.
     *
     * @param task a task
     * @return its JSON, UTF-8
     */
    public static byte[] body(OutboundTask task) {
        TaskPayload payload = task.payload();
        ByteArrayBuilder bytes = new ByteArrayBuilder(192 + payload.argsJson().length() + payload.kwargsJson().length());
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringProperty("task", task.task());
            json.writeName("args");
            copy(payload.argsJson(), json);
            json.writeName("kwargs");
            copy(payload.kwargsJson(), json);
            json.writeStringProperty("job", task.jobName());
            json.writeStringProperty("scheduled_at", task.scheduledAt().toString());
            json.writeStringProperty("idempotency_key", task.key().value());
            if (task.entityType() == null) {
                json.writeNullProperty("entity");
            } else {
                json.writeName("entity");
                json.writeStartObject();
                json.writeStringProperty("type", task.entityType());
                json.writeStringProperty("id", task.entityId());
                json.writeEndObject();
            }
            json.writeEndObject();
        }
        return bytes.toByteArray();
    }

    private static void copy(String value, JsonGenerator json) {
        try (JsonParser parser = JSON.createParser(value)) {
            parser.nextToken();
            json.copyCurrentStructure(parser);
        }
    }
}
