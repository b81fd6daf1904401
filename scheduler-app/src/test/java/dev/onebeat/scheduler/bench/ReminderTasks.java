package dev.onebeat.scheduler.bench;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fan-out both sides write: one {@code send_reminder} task per order, with a payload of about
 * 140 bytes of JSON. onebeat gets it as {@link TaskRequest}s from a job; the raw baseline builds
 * the same key and payload text by hand, as a hand-written insert loop would.
 */
final class ReminderTasks {

    static final String TASK = "send_reminder";
    static final String QUEUE = "emails";
    static final String ENTITY_TYPE = "order";

    private ReminderTasks() {
    }

    /** A job that dispatches the reminders of orders 0 to {@code entities - 1}. */
    static PeriodicJob job(String name, int entities) {
        return Jobs.periodic(name, Schedule.every(Duration.ofSeconds(1))).execute(ctx -> {
            for (int i = 0; i < entities; i++) {
                ctx.dispatch(request(i));
            }
        });
    }

    static TaskRequest request(int order) {
        return TaskRequest.builder(TASK).queue(QUEUE).entity(ENTITY_TYPE, order).args(order).kwargs(kwargs(order))
                .build();
    }

    /** @return the text every key of one fire starts with; the order number completes it */
    static String keyPrefix(String job, Instant scheduledAt) {
        return job + '/' + DateTimeFormatter.ISO_INSTANT.format(scheduledAt) + '/' + TASK + '/' + ENTITY_TYPE + ':';
    }

    /** The payload onebeat stores for {@link #request}, written without a JSON library. */
    static String payloadJson(int order) {
        return "{\"args\":[" + order + "],\"kwargs\":{\"customer\":" + order
                + ",\"template\":\"invoice-reminder\",\"locale\":\"en-GB\",\"channel\":\"email\""
                + ",\"subject\":\"Your order " + order + " is waiting\"}}";
    }

    /**
     * Checks that the hand-built keys and payloads are byte for byte what onebeat derives, so that
     * both sides of the comparison write the same rows.
     *
     * @throws IllegalStateException naming the first difference
     */
    static void requireSameRowsAsOnebeat(JsonMapper json) {
        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        for (int order : new int[] {0, 7, 9_999, 123_456}) {
            String onebeatKey = IdempotencyKey.of("fan-out", at, TASK, Entity.of(ENTITY_TYPE, order)).value();
            requireEqual("key", onebeatKey, keyPrefix("fan-out", at) + order);
            TaskRequest request = request(order);
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("args", request.args());
            payload.put("kwargs", request.kwargs());
            requireEqual("payload", json.writeValueAsString(payload), payloadJson(order));
        }
    }

    private static Map<String, Object> kwargs(int order) {
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("customer", order);
        kwargs.put("template", "invoice-reminder");
        kwargs.put("locale", "en-GB");
        kwargs.put("channel", "email");
        kwargs.put("subject", "Your order " + order + " is waiting");
        return kwargs;
    }

    private static void requireEqual(String what, String onebeat, String raw) {
        if (!onebeat.equals(raw)) {
            throw new IllegalStateException("the raw baseline's " + what + " differs from onebeat's: " + raw
                    + " vs " + onebeat);
        }
    }
}
