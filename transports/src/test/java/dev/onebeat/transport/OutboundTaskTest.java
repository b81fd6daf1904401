package dev.onebeat.transport;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.onebeat.job.IdempotencyKey;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OutboundTaskTest {

    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");
    private static final IdempotencyKey KEY = IdempotencyKey.of("job", SCHEDULED_AT, "task", null);
    private static final TaskPayload PAYLOAD = TaskPayload.of("[]", "{}");

    @Test
    void blankQueueIsRejectedNamingFieldAndValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboundTask(KEY, "job", SCHEDULED_AT, "task", " ", null, null, PAYLOAD, null))
                .withMessage("queue must not be blank, was ' '");
    }

    @Test
    void entityTypeWithoutIdIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new OutboundTask(KEY, "job", SCHEDULED_AT, "task", "q", "order", null, PAYLOAD, null))
                .withMessage("entityType and entityId must both be set or both be null, were order and null");
    }

    @Test
    void missingPayloadIsRejected() {
        assertThatNullPointerException()
                .isThrownBy(() -> new OutboundTask(KEY, "job", SCHEDULED_AT, "task", "q", null, null, null, null))
                .withMessage("payload must not be null");
    }
}
