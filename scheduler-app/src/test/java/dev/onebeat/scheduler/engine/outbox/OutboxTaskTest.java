package dev.onebeat.scheduler.engine.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.transport.TaskPayload;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class OutboxTaskTest {

    private static final Instant T = Instant.parse("2026-11-29T08:00:00Z");
    private static final Instant FIRED = Instant.parse("2026-11-29T09:30:00Z");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aDispatchedTaskCarriesItsArgumentsDeliveryAndExpiryOriginTyped() {
        TaskRequest request = TaskRequest.builder("billing.close").queue("invoices").args(42, "eu")
                .kwargs(Map.of("late", true)).expires(Duration.ofMinutes(5)).build();

        OutboxTask task = OutboxTask.of(key(request), request, FIRED, JSON, TaskArguments.DEFAULT_MAX_BYTES, null,
                null);

        assertThat(task.payload()).isEqualTo(new TaskPayload("[42,\"eu\"]", "{\"late\":true}", request.delivery(),
                FIRED));
        assertThat(task.payload().toJson()).isEqualTo("{\"args\":[42,\"eu\"],\"kwargs\":{\"late\":true},"
                + "\"delivery\":{\"expires\":\"PT5M\",\"expires_from\":\"2026-11-29T09:30:00Z\"}}");
    }

    @Test
    void argumentsOverTheBoundAreRefusedNamingTheTaskAndSizes() {
        TaskRequest request = TaskRequest.builder("reports.build").args("x".repeat(2000)).build();

        assertThatIllegalArgumentException()
                .isThrownBy(() -> OutboxTask.of(key(request), request, null, JSON, 1024, null, null))
                .withMessage("args/kwargs: task 'reports.build' has arguments of 2025 bytes (2.0 KiB) as JSON, more than "
                        + "onebeat.fire.max-arguments-size allows (1024 bytes (1.0 KiB))");
    }

    @Test
    void deliveryOptionsCountTowardsTheBound() {
        TaskRequest request = TaskRequest.builder("reports.build").args("x".repeat(300))
                .delivery(new DeliveryOptions(null, null, null, null, Map.of("trace", "y".repeat(700))))
                .build();

        assertThatIllegalArgumentException()
                .isThrownBy(() -> OutboxTask.of(key(request), request, null, JSON, 1024, null, null))
                .withMessageStartingWith("args/kwargs: task 'reports.build' has arguments of 1061 bytes");
    }

    private static IdempotencyKey key(TaskRequest request) {
        return IdempotencyKey.of("job", T, request.task(), request.entity());
    }
}
