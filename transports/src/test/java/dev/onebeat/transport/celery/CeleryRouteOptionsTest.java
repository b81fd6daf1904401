package dev.onebeat.transport.celery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.onebeat.job.DeliveryOptions;
import dev.onebeat.job.Entity;
import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.BrokerSettings;
import dev.onebeat.transport.BrokerType;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.QueueRoute;
import dev.onebeat.transport.TaskPayload;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CeleryRouteOptionsTest {

    private static final BrokerSettings RABBIT = new BrokerSettings("mq", BrokerType.RABBITMQ, "amqp://h/", Map.of());
    private static final BrokerSettings REDIS = new BrokerSettings("cache", BrokerType.REDIS, "redis://h/0", Map.of());
    private static final Instant AT = Instant.parse("2026-11-29T08:00:00Z");

    @Test
    void queueArgumentsAreTypedAsRabbitMqComparesThem() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("queue-arguments.x-queue-type", "quorum");
        options.put("queue-arguments.x-max-priority", "10");
        options.put("queue-arguments.x-single-active-consumer", "true");
        options.put("exchange-type", "topic");
        options.put("declare", "false");

        CeleryRouteOptions parsed = CeleryRouteOptions.of(route(RABBIT, options));

        assertThat(parsed.queueArguments()).containsOnly(Map.entry("x-queue-type", "quorum"),
                Map.entry("x-max-priority", 10), Map.entry("x-single-active-consumer", true));
        assertThat(parsed.exchangeType()).isEqualTo("topic");
        assertThat(parsed.declare()).isFalse();
    }

    @Test
    void deliveryDefaultsComeFromTheRoute() {
        CeleryRouteOptions parsed = CeleryRouteOptions.of(route(RABBIT, Map.of("expires", "2h", "priority", "4",
                "exchange", "billing", "routing-key", "billing.close", "headers.tenant", "acme")));

        assertThat(parsed.delivery()).isEqualTo(new DeliveryOptions(Duration.ofHours(2), 4, "billing", "billing.close",
                Map.of("tenant", "acme")));
        assertThat(parsed.declare()).isTrue();
        assertThat(CeleryQueueDeclaration.of("invoices", parsed)).isEqualTo(new CeleryQueueDeclaration("billing",
                "direct", true, "invoices", true, false, false, Map.of(), "billing.close"));
    }

    @Test
    void badOptionsAreRefusedNamingTheOptionAndTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> CeleryRouteOptions.of(route(RABBIT, Map.of("expire", "1h"))))
                .withMessageStartingWith("options.expire: unknown option of the celery transport; known: [declare,");
        assertThatIllegalArgumentException().isThrownBy(() -> CeleryRouteOptions.of(route(RABBIT, Map.of("expires", "soon"))))
                .withMessageStartingWith("options.expires: 'soon' is not a duration");
        assertThatIllegalArgumentException().isThrownBy(() -> CeleryRouteOptions.of(route(RABBIT, Map.of("priority", "300"))))
                .withMessage("options.priority: must be 0 to 255, was 300");
        assertThatIllegalArgumentException().isThrownBy(() -> CeleryRouteOptions.of(route(RABBIT, Map.of("priority", "high"))))
                .withMessageStartingWith("options.priority: must be a whole number");
        assertThatIllegalArgumentException().isThrownBy(() -> CeleryRouteOptions.of(route(RABBIT, Map.of("declare", "no"))))
                .withMessage("options.declare: must be true or false, was 'no'");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CeleryRouteOptions.of(route(RABBIT, Map.of("queue-arguments.x-max-priority", "ten"))))
                .withMessage("options.queue-arguments.x-max-priority: must be a whole number, was 'ten'");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CeleryRouteOptions.of(route(RABBIT, Map.of("headers.task", "other"))))
                .withMessage("options.headers.task: the transport sets this header itself");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CeleryRouteOptions.of(route(REDIS, Map.of("queue-arguments.x-queue-type", "quorum"))))
                .withMessageStartingWith("options.queue-arguments.x-queue-type: only a rabbitmq broker has it");
        assertThatIllegalArgumentException().isThrownBy(() -> CeleryRouteOptions.of(route(REDIS, Map.of("exchange", "x"))))
                .withMessageStartingWith("options.exchange: only a rabbitmq broker has it");
    }

    @Test
    void expiresIsTheScheduledInstantPlusTheOptionAsPythonsIsoformat() {
        CeleryMessage message = CeleryMessage.of(task("{\"args\": [], \"kwargs\": {}}"), "onebeat@n",
                new DeliveryOptions(Duration.ofMinutes(90), null, null, null, Map.of("tenant", "acme")));

        assertThat(message.headers()).containsEntry("expires", "2026-11-29T09:30:00+00:00").containsEntry("tenant", "acme");
        assertThat(message.expiresAt()).isEqualTo(AT.plus(Duration.ofMinutes(90)));
        assertThat(CeleryMessage.of(task("{\"args\": [], \"kwargs\": {}}"), "onebeat@n").headers())
                .containsEntry("expires", null);
    }

    @Test
    void aTaskWhosePayloadSaysWhenItsExpiryCountsFromExpiresThatLongAfterItWhetherTheJobOrTheRouteSetIt() {
        // the task of a fire an operator asked for, an hour after its instant
        OutboundTask task = task("{\"args\": [], \"kwargs\": {}, \"delivery\": {\"expires_from\": \"2026-11-29T10:00:00Z\"}}");
        OutboundTask jobExpiry = task("{\"args\": [], \"kwargs\": {}, \"delivery\": {\"expires\": \"PT5M\", "
                + "\"expires_from\": \"2026-11-29T10:00:00Z\"}}");

        CeleryMessage routeExpiry = CeleryMessage.forRoute(task, "onebeat@n",
                new DeliveryOptions(Duration.ofMinutes(1), null, null, null, Map.of()));

        assertThat(routeExpiry.headers()).containsEntry("expires", "2026-11-29T10:01:00+00:00");
        assertThat(CeleryMessage.forRoute(jobExpiry, "onebeat@n", DeliveryOptions.NONE).expiresAt())
                .isEqualTo(Instant.parse("2026-11-29T10:05:00Z"));
        assertThat(CeleryMessage.forRoute(task, "onebeat@n", DeliveryOptions.NONE).headers())
                .as("nothing expires").containsEntry("expires", null);
    }

    @Test
    void priorityExchangeAndRoutingKeyReachTheAmqpMessageAndRedisList() {
        OutboundTask task = task("{\"args\": [], \"kwargs\": {}}");
        DeliveryOptions urgent = new DeliveryOptions(null, 7, "billing", "billing.urgent", Map.of());

        CeleryAmqpMessage amqp = CeleryAmqpMessage.of(CeleryMessage.of(task, "onebeat@n", urgent));
        assertThat(amqp.exchange()).isEqualTo("billing");
        assertThat(amqp.routingKey()).isEqualTo("billing.urgent");
        assertThat(amqp.priority()).isEqualTo(7);

        CeleryAmqpMessage keyOnly = CeleryAmqpMessage.of(CeleryMessage.of(task, "onebeat@n",
                new DeliveryOptions(null, null, null, "billing.urgent", Map.of())));
        assertThat(keyOnly.exchange()).as("a routing key alone goes to the queue's own exchange").isEqualTo("invoices");

        CeleryRedisEnvelope redis = CeleryRedisEnvelope.of(CeleryMessage.of(task, "onebeat@n",
                new DeliveryOptions(null, 6, null, null, Map.of())));
        assertThat(redis.listKey()).isEqualTo("invoices\u0006\u00166");
        assertThat(redis.json()).contains("\"priority\": 6");
    }

    @Test
    void aJobsDeliveryOptionsTravelInThePayloadAndBack() {
        DeliveryOptions options = new DeliveryOptions(Duration.ofMinutes(5), 2, "x", "y", Map.of("tenant", "acme"));
        String payload = new TaskPayload("[1]", "{}", options, null).toJson();

        assertThat(task(payload).payload().delivery()).isEqualTo(options);
        assertThat(task("{\"args\": [], \"kwargs\": {}}").payload().delivery()).isSameAs(DeliveryOptions.NONE);
    }

    private static QueueRoute route(BrokerSettings broker, Map<String, String> options) {
        return new QueueRoute("invoices", "celery", broker, options);
    }

    private static OutboundTask task(String payload) {
        IdempotencyKey key = IdempotencyKey.of("close-books", AT, "billing.close", new Entity("customer", "42"));
        return new OutboundTask(key, "close-books", AT, "billing.close", "invoices", "customer", "42",
                TaskPayload.fromJson(payload), null);
    }
}
