package dev.onebeat.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.IdempotencyKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

class TaskJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant AT = Instant.parse("2026-12-06T09:00:00Z");

    /**
     * The body copies the stored arguments token by token; it must come out as a mapper writes the arguments it read
     * (the body's form before the copy, which consumers may compare byte for byte): compact, numbers as Java reads
     * them, strings escaped alike.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"args\": [], \"kwargs\": {}}",
            "{\"args\": [42, \"é\", true, null, -0, 1.10, 1e3, 2.5E-7, 12345678901234567890123],"
                    + " \"kwargs\": {\"a\": {\"b\": [1, [2, {}]]}, \"z\": \"\\u0001\\\"\\\\/\\n\\t\", \"u\": \"\\u2028 ✓ 𝄞\"}}",
            "{\"args\": [9223372036854775807, -9223372036854775808, 0.1, 3.141592653589793238462643], \"kwargs\": {\"\": []}}",
            "{\"args\": [ {  \"deep\" : [ [ [ ] ] ] } ] , \"kwargs\" : { \"k\" : 1 } }"})
    void theBodyIsWhatAMapperWritesOfTheReadArguments(String stored) {
        TaskPayload payload = TaskPayload.fromJson(stored);
        for (String entity : new String[] {null, "42"}) {
            IdempotencyKey key = IdempotencyKey.of("job", AT, "t.x", null);
            OutboundTask task = new OutboundTask(key, "job", AT, "t.x", "q", entity == null ? null : "order", entity,
                    payload, null);

            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("task", "t.x");
            expected.put("args", JSON.readValue(payload.argsJson(), List.class));
            expected.put("kwargs", JSON.readValue(payload.kwargsJson(), LinkedHashMap.class));
            expected.put("job", "job");
            expected.put("scheduled_at", "2026-12-06T09:00:00Z");
            expected.put("idempotency_key", key.value());
            Map<String, Object> entityJson = new LinkedHashMap<>();
            entityJson.put("type", "order");
            entityJson.put("id", entity);
            expected.put("entity", entity == null ? null : entityJson);

            assertThat(new String(TaskJson.body(task), StandardCharsets.UTF_8))
                    .isEqualTo(JSON.writeValueAsString(expected));
        }
    }
}
