package dev.onebeat.transport;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Splits an outbox payload {@code {"args": [...], "kwargs": {...}}} into the two JSON texts the
 * encoders take.
 */
public final class Payloads {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Payloads() {
    }

    /**
     * @param task a task
     * @return {@code [argsJson, kwargsJson]}; {@code []} and {@code {}} where the payload has none
     * @throws IllegalArgumentException if the payload is not a JSON object
     */
    public static String[] split(OutboundTask task) {
        JsonNode payload = JSON.readTree(task.payloadJson());
        if (payload == null || !payload.isObject()) {
            throw new IllegalArgumentException("payload of task " + task.key().value() + " is not a JSON object");
        }
        JsonNode args = payload.get("args");
        JsonNode kwargs = payload.get("kwargs");
        return new String[] {
                args == null || args.isNull() ? "[]" : JSON.writeValueAsString(args),
                kwargs == null || kwargs.isNull() ? "{}" : JSON.writeValueAsString(kwargs)};
    }
}
