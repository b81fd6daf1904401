package dev.onebeat.scheduler.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.engine.relay.Relay;
import dev.onebeat.transport.testing.PythonInterpreter;
import dev.onebeat.transport.testing.RabbitTestBroker;
import dev.onebeat.transport.testing.RedisTestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * arq and Dramatiq have no Debian package, so no worker runs here: instead a replica relays to real
 * Redis and RabbitMQ with the {@code arq} and {@code dramatiq} transports, and the test reads back
 * the broker state those libraries' workers expect — keys, values, queue arguments — as their
 * sources define it (see the wire-format reference), and unpickles arq's payload with real Python.
 */
@SchedulerIT
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArqDramatiqBrokerIT {

    private static final RedisTestDatabase REDIS = new RedisTestDatabase();
    private static final RabbitTestBroker RABBIT = new RabbitTestBroker();
    // arq's keys carry the job id, the idempotency key, which starts with the job name
    private static final String ARQ_JOB = REDIS.newName("arq-job");
    private static final String ARQ_QUEUE = REDIS.newName("arq");
    private static final String ARQ_QUEUE_KEY = REDIS.newName("arq-queue-key");
    private static final String DRAMATIQ_REDIS_QUEUE = REDIS.newName("dramatiq");
    private static final String DRAMATIQ_RABBIT_QUEUE = RABBIT.newQueueName("dramatiq");
    private static final String TASK = "interop_record";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        List<String> jobs = List.of(ARQ_JOB, "dramatiq-redis", "dramatiq-rabbit");
        List<String> queues = List.of(ARQ_QUEUE, DRAMATIQ_REDIS_QUEUE, DRAMATIQ_RABBIT_QUEUE);
        for (int i = 0; i < jobs.size(); i++) {
            String job = "onebeat.jobs[" + i + "].";
            String name = jobs.get(i);
            String queue = queues.get(i);
            registry.add(job + "name", () -> name);
            registry.add(job + "every", () -> "1s");
            registry.add(job + "task", () -> TASK);
            registry.add(job + "queue", () -> queue);
            registry.add(job + "args[0]", () -> "Grüße ✓");
            registry.add(job + "kwargs.region", () -> "eu");
        }
        registry.add("onebeat.relay.brokers.redis.type", () -> "redis");
        registry.add("onebeat.relay.brokers.redis.url", () -> RedisTestDatabase.URL);
        registry.add("onebeat.relay.brokers.rabbit.type", () -> "rabbitmq");
        registry.add("onebeat.relay.brokers.rabbit.url", () -> RabbitTestBroker.URL);
        route(registry, ARQ_QUEUE, "arq", "redis");
        registry.add("onebeat.relay.queues." + ARQ_QUEUE + ".options.queue-key", () -> ARQ_QUEUE_KEY);
        route(registry, DRAMATIQ_REDIS_QUEUE, "dramatiq", "redis");
        route(registry, DRAMATIQ_RABBIT_QUEUE, "dramatiq", "rabbit");
    }

    private static void route(DynamicPropertyRegistry registry, String queue, String transport, String broker) {
        registry.add("onebeat.relay.queues." + queue + ".transport", () -> transport);
        registry.add("onebeat.relay.queues." + queue + ".broker", () -> broker);
    }

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    Relay relay;

    @Test
    void arqJobIsStoredPickledUnderItsKeyAndQueuedByEnqueueTime() {
        IdempotencyKey key = firstPublished(ARQ_QUEUE);
        byte[] jobKey = ("arq:job:" + key.value()).getBytes(StandardCharsets.UTF_8);

        JsonNode job = JSON.readTree(PythonInterpreter.run("import pickle, sys, json; "
                + "d = pickle.loads(bytes.fromhex(sys.argv[1])); "
                + "print(json.dumps(dict(d, a=list(d['a']), a_is_tuple=isinstance(d['a'], tuple))))",
                REDIS.jedis().get(jobKey)));
        assertThat(job.get("t").isNull()).isTrue();
        assertThat(job.get("f").asString()).isEqualTo(TASK);
        assertThat(job.get("a").toString()).isEqualTo("[\"Grüße ✓\"]");
        assertThat(job.get("a_is_tuple").asBoolean()).isTrue();
        assertThat(job.get("k").toString()).isEqualTo("{\"region\":\"eu\"}");
        assertThat(REDIS.jedis().zscore(ARQ_QUEUE_KEY, key.value())).as("queue score: the enqueue time")
                .isEqualTo((double) job.get("et").asLong());
        assertThat(REDIS.jedis().pttl(jobKey)).as("job key TTL").isPositive().isLessThanOrEqualTo(86_400_000L);
    }

    @Test
    void arqRepublishOfTheSameKeyLeavesTheQueuedJobAsItWas() {
        IdempotencyKey key = firstPublished(ARQ_QUEUE);
        byte[] jobKey = ("arq:job:" + key.value()).getBytes(StandardCharsets.UTF_8);
        byte[] payload = REDIS.jedis().get(jobKey);
        Double score = REDIS.jedis().zscore(ARQ_QUEUE_KEY, key.value());
        int attempts = jdbc.queryForObject("SELECT attempts FROM onebeat_task WHERE idempotency_key = ?",
                Integer.class, key.value());

        // as after a crash between publish and mark: the row is due again and the relay republishes it
        jdbc.update("UPDATE onebeat_task SET status = 'pending', available_at = now(), published_at = NULL "
                + "WHERE idempotency_key = ?", key.value());
        relay.wake();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(jdbc.queryForMap(
                "SELECT status, attempts FROM onebeat_task WHERE idempotency_key = ?", key.value()))
                .containsEntry("status", "published").containsEntry("attempts", attempts + 1));

        // a re-enqueue would have written a new payload: its enqueue time 'et' is the publish time
        assertThat(REDIS.jedis().get(jobKey)).isEqualTo(payload);
        assertThat(REDIS.jedis().zscore(ARQ_QUEUE_KEY, key.value())).isEqualTo(score);
    }

    @Test
    void dramatiqMessageOnRedisIsInTheMessagesHashUnderTheIdQueuedInTheListWithKeyAndInstantOptions() {
        IdempotencyKey key = firstPublished(DRAMATIQ_REDIS_QUEUE);
        String messagesKey = "dramatiq:" + DRAMATIQ_REDIS_QUEUE + ".msgs";
        String queueKey = "dramatiq:" + DRAMATIQ_REDIS_QUEUE;

        // the list first: an id pushed after it was read still has its body in the hash read next
        List<String> queued = REDIS.jedis().lrange(queueKey, 0, -1);
        Map<String, String> bodies = REDIS.jedis().hgetAll(messagesKey);
        assertThat(bodies.keySet()).as("every queued id has its body").containsAll(queued);
        Map.Entry<String, JsonNode> entry = bodies.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), JSON.readTree(e.getValue())))
                .filter(e -> e.getValue().get("message_id").asString().equals(key.toUuid().toString()))
                .findFirst().orElseThrow(() -> new AssertionError("no message with message_id " + key.toUuid()
                        + " of " + key + " in " + messagesKey + ": " + bodies));
        String redisMessageId = entry.getKey();
        JsonNode message = entry.getValue();
        assertThat(queued).contains(redisMessageId);
        assertThat(message.get("queue_name").asString()).isEqualTo(DRAMATIQ_REDIS_QUEUE);
        assertThat(message.get("actor_name").asString()).isEqualTo(TASK);
        assertThat(message.get("args").toString()).isEqualTo("[\"Grüße ✓\"]");
        assertThat(message.get("kwargs").toString()).isEqualTo("{\"region\":\"eu\"}");
        assertThat(message.get("options").get("redis_message_id").asString()).isEqualTo(redisMessageId);
        assertThat(message.get("options").get("idempotency_key").asString()).isEqualTo(key.value());
        assertThat(message.get("options").get("scheduled_at").asString())
                .isEqualTo(WorkerInteropBase.scheduledAt(jdbc, key));
        assertThat(message.get("message_timestamp").isIntegralNumber()).isTrue();
    }

    @Test
    void dramatiqOnRabbitDeclaresTheThreeQueuesAsDramatiqDoesAndPublishesKeyAndInstantOptionsToTheMainOne()
            throws Exception {
        IdempotencyKey key = firstPublished(DRAMATIQ_RABBIT_QUEUE);
        String queue = DRAMATIQ_RABBIT_QUEUE;
        Map<String, Object> deadLettering = Map.of("x-dead-letter-exchange", "",
                "x-dead-letter-routing-key", queue + ".XQ");
        // what Dramatiq's RabbitmqBroker declares: RabbitMQ refuses (406) a declaration that differs
        declare(queue, deadLettering);
        declare(queue + ".DQ", deadLettering);
        declare(queue + ".XQ", Map.of("x-message-ttl", 604_800_000));
        assertThatThrownBy(() -> declare(queue, Map.of())).as("a declaration the broker must refuse")
                .isInstanceOf(IOException.class);

        List<GetResponse> messages = RABBIT.drain(queue);
        assertThat(messages).isNotEmpty();
        assertThat(RABBIT.count(queue + ".DQ") + RABBIT.count(queue + ".XQ")).isZero();
        GetResponse first = messages.stream()
                .filter(m -> JSON.readTree(m.getBody()).get("message_id").asString().equals(key.toUuid().toString()))
                .findFirst().orElseThrow(() -> new AssertionError("no message of " + key + " in " + queue));
        JsonNode message = JSON.readTree(first.getBody());
        assertThat(message.get("queue_name").asString()).isEqualTo(queue);
        assertThat(message.get("actor_name").asString()).isEqualTo(TASK);
        assertThat(message.get("args").toString()).isEqualTo("[\"Grüße ✓\"]");
        assertThat(message.get("options").propertyNames()).containsExactly("idempotency_key", "scheduled_at");
        assertThat(message.get("options").get("idempotency_key").asString()).isEqualTo(key.value());
        assertThat(message.get("options").get("scheduled_at").asString())
                .isEqualTo(WorkerInteropBase.scheduledAt(jdbc, key));
        assertThat(first.getProps().getDeliveryMode()).isEqualTo(2);
        assertThat(first.getProps().getHeaders()).isNull();
        assertThat(first.getProps().getContentType()).isNull();
        assertThat(first.getProps().getCorrelationId()).isNull();
    }

    private void declare(String queue, Map<String, Object> arguments) throws Exception {
        try (Channel channel = RABBIT.channel().getConnection().createChannel()) {
            channel.queueDeclare(queue, true, false, false, arguments);
        }
    }

    private IdempotencyKey firstPublished(String queue) {
        return await().atMost(TIMEOUT).until(() -> jdbc.query(
                "SELECT idempotency_key FROM onebeat_task WHERE queue = ? AND status = 'published' ORDER BY id LIMIT 1",
                (rs, row) -> new IdempotencyKey(rs.getString(1)), queue).stream().findFirst().orElse(null),
                found -> found != null);
    }

    /** The relay stops first, so that nothing it publishes after the clean-up is left behind. */
    @AfterAll
    void stopRelayThenDeleteKeysAndQueues() throws Exception {
        try {
            relay.stop();
        } finally {
            try {
                REDIS.close();
            } finally {
                RABBIT.close();
            }
        }
    }
}
