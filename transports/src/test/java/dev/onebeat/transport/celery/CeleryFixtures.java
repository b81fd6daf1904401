package dev.onebeat.transport.celery;

import static org.assertj.core.api.Assertions.entry;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/** Fixed inputs of the golden tests; change one and every expected byte changes with it. */
final class CeleryFixtures {

    static final String ORIGIN = "onebeat@node-1";
    static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");

    private CeleryFixtures() {
    }

    /** Task {@code proj.tasks.add(2, 3)}, the reference's captured example, on queue {@code reminders}. */
    static OutboundTask add() {
        return task("{\"args\": [2, 3], \"kwargs\": {}}", null);
    }

    static OutboundTask task(String payloadJson, Instant notBefore) {
        IdempotencyKey key = IdempotencyKey.of("invoice-reminders", SCHEDULED_AT, "proj.tasks.add", new Entity("order", "42"));
        return new OutboundTask(key, "invoice-reminders", SCHEDULED_AT, "proj.tasks.add", "reminders",
                "order", "42", TaskPayload.fromJson(payloadJson), notBefore);
    }

    static final String TASK_ID = "99b5a4eb-7da1-561e-9dae-46d2a0cb7e8c";
    static final String KEY = "invoice-reminders/2026-11-29T08:00:00Z/proj.tasks.add/order:42";

    /** The headers Celery protocol 2 carries for {@link #add()}, in Celery's order, then the key and the instant. */
    @SuppressWarnings("unchecked")
    static Map.Entry<String, Object>[] addHeaders() {
        return new Map.Entry[] {
                entry("lang", "py"),
                entry("task", "proj.tasks.add"),
                entry("id", TASK_ID),
                entry("shadow", null),
                entry("eta", null),
                entry("expires", null),
                entry("group", null),
                entry("group_index", null),
                entry("retries", 0),
                entry("timelimit", Arrays.asList(null, null)),
                entry("root_id", TASK_ID),
                entry("parent_id", null),
                entry("argsrepr", "(2, 3)"),
                entry("kwargsrepr", "{}"),
                entry("origin", "onebeat@node-1"),
                entry("ignore_result", false),
                entry("replaced_task_nesting", 0),
                entry("stamped_headers", null),
                entry("stamps", Map.of()),
                entry("idempotency_key", KEY),
                entry("scheduled_at", "2026-11-29T08:00:00Z")};
    }
}
