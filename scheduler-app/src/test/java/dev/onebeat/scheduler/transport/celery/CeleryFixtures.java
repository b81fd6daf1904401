package dev.onebeat.scheduler.transport.celery;

import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.transport.OutboundTask;
import java.time.Instant;

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
                "order", "42", payloadJson, notBefore);
    }
}
