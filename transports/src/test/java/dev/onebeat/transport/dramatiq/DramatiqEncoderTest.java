package dev.onebeat.transport.dramatiq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.TraceContext;
import dev.onebeat.transport.internal.redis.RedisCommand;
import dev.onebeat.transport.testing.PythonInterpreter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DramatiqEncoderTest {

    private static final IdempotencyKey KEY = new IdempotencyKey("reports/2026-11-29T08:00:00Z/add");
    private static final String MESSAGE_ID = "43f25aea-23fd-5d2e-9b5b-306d060e2b51";
    private static final Instant SCHEDULED_AT = Instant.parse("2026-11-29T08:00:00Z");
    private static final String OPTIONS = "\"idempotency_key\":\"reports/2026-11-29T08:00:00Z/add\","
            + "\"scheduled_at\":\"2026-11-29T08:00:00Z\"";
    private static final Instant ENQUEUED_AT = Instant.ofEpochMilli(1_795_938_930_663L);
    private static final UUID RID = UUID.fromString("6f9229c1-45c5-47ca-80d4-eb1f9a8d1e72");

    @Nested
    class Message {

        @Test
        void fieldsComeInDramatiqOrderWithCompactSeparators() {
            byte[] body = DramatiqEncoder.message("add", "default", KEY, SCHEDULED_AT, "[1, 2]", "{}", ENQUEUED_AT,
                    Map.of());

            assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("{\"queue_name\":\"default\","
                    + "\"actor_name\":\"add\",\"args\":[1,2],\"kwargs\":{},\"options\":{" + OPTIONS + "},"
                    + "\"message_id\":\"" + MESSAGE_ID + "\",\"message_timestamp\":1795938930663}");
        }

        @Test
        void brokerOptionsFollowTheKeyAndTheInstantInTheirOrder() {
            Map<String, Object> brokerOptions = new LinkedHashMap<>();
            brokerOptions.put("max_retries", 3);
            brokerOptions.put("broker_priority", 1);
            byte[] body = DramatiqEncoder.message("add", "default", KEY, SCHEDULED_AT, "[]", "{}", ENQUEUED_AT,
                    brokerOptions);

            assertThat(new String(body, StandardCharsets.UTF_8))
                    .contains("\"options\":{" + OPTIONS + ",\"max_retries\":3,\"broker_priority\":1}");
        }

        @Test
        void brokerOptionReplacingTheKeyIsRefusedByName() {
            assertThatThrownBy(() -> DramatiqEncoder.message("add", "q", KEY, SCHEDULED_AT, "[]", "{}", ENQUEUED_AT,
                    Map.of("idempotency_key", "other")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("idempotency_key");
        }

        @Test
        void textIsAsciiWithLowercaseEscapesAsPythonJsonDumps() {
            byte[] body = DramatiqEncoder.message("add", "default", KEY, SCHEDULED_AT,
                    "[\"Zoë 😀\", 0.1, 1e-05, null, true]", "{\"q\":\"a\\\"b\\\\\\n\\u0001\"}", ENQUEUED_AT, Map.of());

            assertThat(new String(body, StandardCharsets.US_ASCII)).contains(
                    "\"args\":[\"Zo\\u00eb \\ud83d\\ude00\",0.1,1e-05,null,true],"
                            + "\"kwargs\":{\"q\":\"a\\\"b\\\\\\n\\u0001\"}");
        }

        @Test
        void sameKeyGivesIdenticalBytes() {
            String args = "[{\"b\":1,\"a\":2}]";

            assertThat(DramatiqEncoder.message("add", "q", KEY, SCHEDULED_AT, args, null, ENQUEUED_AT, Map.of()))
                    .isEqualTo(DramatiqEncoder.message("add", "q", KEY, SCHEDULED_AT, args, null, ENQUEUED_AT, Map.of()));
        }

        @Test
        void blankActorIsRefusedByName() {
            assertThatThrownBy(() -> DramatiqEncoder.message("", "q", KEY, SCHEDULED_AT, "[]", "{}", ENQUEUED_AT,
                    Map.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("actor");
        }

        @Test
        void pythonReadsTheSameMessage() {
            PythonInterpreter.require();
            byte[] body = DramatiqEncoder.message("add", "default", KEY, SCHEDULED_AT, "[\"日本\", 2.5]", "{\"n\":null}",
                    ENQUEUED_AT, Map.of());

            String reencoded = PythonInterpreter.run(
                    "import json,sys; print(json.dumps(json.loads(bytes.fromhex(sys.argv[1])), separators=(',',':')))",
                    body);

            assertThat(reencoded).isEqualTo(new String(body, StandardCharsets.US_ASCII));
        }

        @Test
        void pythonFindsTheKeyAndTheInstantInTheOptions() {
            PythonInterpreter.require();
            byte[] body = DramatiqEncoder.message("add", "default", KEY, SCHEDULED_AT, "[]", "{}", ENQUEUED_AT,
                    Map.of());

            // Dramatiq's Message(**json.loads(body)) keeps options as they are
            assertThat(PythonInterpreter.run("import json,sys; o = json.loads(bytes.fromhex(sys.argv[1]))['options'];"
                    + " print(o['idempotency_key'], o['scheduled_at'])", body))
                    .isEqualTo("reports/2026-11-29T08:00:00Z/add 2026-11-29T08:00:00Z");
        }
    }

    @Nested
    class OverRabbitMq {

        @Test
        void publishesPersistentToTheQueueWithOnlyTheKeyAndTheInstantAsOptions() {
            DramatiqAmqpMessage message = DramatiqEncoder.amqp("add", "reports", KEY, SCHEDULED_AT, "[1]", "{}",
                    ENQUEUED_AT);

            assertThat(message.routingKey()).isEqualTo("reports");
            assertThat(message.deliveryMode()).isEqualTo(2);
            assertThat(new String(message.body(), StandardCharsets.UTF_8)).contains("\"options\":{" + OPTIONS + "}");
        }

        @Test
        void declaresQueueAndDelayQueueDeadLetteringToTheDeadQueue() {
            assertThat(DramatiqEncoder.queues("reports")).containsExactly(
                    new DramatiqQueue("reports",
                            Map.of("x-dead-letter-exchange", "", "x-dead-letter-routing-key", "reports.XQ")),
                    new DramatiqQueue("reports.DQ",
                            Map.of("x-dead-letter-exchange", "", "x-dead-letter-routing-key", "reports.XQ")),
                    new DramatiqQueue("reports.XQ", Map.of("x-message-ttl", 604_800_000)));
        }
    }

    @Nested
    class OverRedis {

        private final DramatiqRedisMessage message = DramatiqEncoder.redis(DramatiqEncoder.DEFAULT_NAMESPACE, "add",
                "default", KEY, SCHEDULED_AT, "[1, 2]", "{}", ENQUEUED_AT, RID);

        @Test
        void bodyCarriesTheKeyTheInstantThenTheRedisMessageIdInItsOptions() {
            assertThat(new String(message.body(), StandardCharsets.UTF_8)).isEqualTo("{\"queue_name\":\"default\","
                    + "\"actor_name\":\"add\",\"args\":[1,2],\"kwargs\":{},"
                    + "\"options\":{" + OPTIONS + ",\"redis_message_id\":\"6f9229c1-45c5-47ca-80d4-eb1f9a8d1e72\"},"
                    + "\"message_id\":\"" + MESSAGE_ID + "\",\"message_timestamp\":1795938930663}");
        }

        @Test
        void writesTheHashEntryBeforePushingItsId() {
            assertThat(message.messagesKey()).isEqualTo("dramatiq:default.msgs");
            assertThat(message.queueKey()).isEqualTo("dramatiq:default");
            assertThat(message.commands()).extracting(RedisCommand::toString).containsExactly(
                    "MULTI",
                    "HSET dramatiq:default.msgs 6f9229c1-45c5-47ca-80d4-eb1f9a8d1e72 "
                            + new String(message.body(), StandardCharsets.UTF_8),
                    "RPUSH dramatiq:default 6f9229c1-45c5-47ca-80d4-eb1f9a8d1e72",
                    "EXEC");
        }
    }

    @Test
    void theTraceGoesInTheOptionsOnBothBrokers() {
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        TraceContext trace = new TraceContext(parent, null);

        String amqp = new String(DramatiqEncoder.amqp("add", "q", KEY, SCHEDULED_AT, "[]", "{}", ENQUEUED_AT, trace)
                .body(), StandardCharsets.UTF_8);
        String redis = new String(DramatiqEncoder.redis(DramatiqEncoder.DEFAULT_NAMESPACE, "add", "q", KEY,
                SCHEDULED_AT, "[]", "{}", ENQUEUED_AT, RID, trace).body(), StandardCharsets.UTF_8);

        assertThat(amqp).contains("\"options\":{" + OPTIONS + ",\"traceparent\":\"" + parent + "\"}");
        assertThat(redis).contains(",\"traceparent\":\"" + parent + "\",\"redis_message_id\":\"" + RID + "\"}");
    }
}
