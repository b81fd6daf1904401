package dev.onebeat.transport.celery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CeleryAmqpMessageTest {

    private static final String TASK_ID = CeleryFixtures.TASK_ID;
    private static final String KEY = CeleryFixtures.KEY;

    private static CeleryAmqpMessage amqp(String payloadJson, Instant notBefore) {
        return CeleryAmqpMessage.of(CeleryMessage.of(CeleryFixtures.task(payloadJson, notBefore), CeleryFixtures.ORIGIN));
    }

    @Test
    void publishesToTheDefaultExchangeWithTheQueueAsRoutingKey() {
        CeleryAmqpMessage message = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(message.exchange()).isEmpty();
        assertThat(message.routingKey()).isEqualTo("reminders");
    }

    @Test
    void propertiesAreJsonUtf8PersistentPriorityZeroCorrelatedByTaskId() {
        CeleryAmqpMessage message = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(message.contentType()).isEqualTo("application/json");
        assertThat(message.contentEncoding()).isEqualTo("utf-8");
        assertThat(message.deliveryMode()).isEqualTo(2);
        assertThat(message.priority()).isZero();
        assertThat(message.correlationId()).isEqualTo(TASK_ID);
    }

    @Test
    void headersTableHoldsExactlyTheProtocolTwoHeaders() {
        CeleryAmqpMessage message = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(message.headers()).containsExactly(CeleryFixtures.addHeaders());
    }

    @Test
    void headerValuesAreOnlyTypesPyAmqpDecodesAsTheirPythonCounterparts() {
        CeleryAmqpMessage message = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(message.headers().values()).filteredOn(value -> value != null)
                .allSatisfy(value -> assertThat(value).isInstanceOfAny(String.class, Integer.class, Boolean.class,
                        java.util.List.class, Map.class));
    }

    @Test
    void bodyIsTheCeleryBodyInUtf8() {
        CeleryAmqpMessage message = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(message.body()).isEqualTo(
                "[[2, 3], {}, {\"callbacks\": null, \"errbacks\": null, \"chain\": null, \"chord\": null}]"
                        .getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void unicodeArgumentsAreWrittenAsRawUtf8() {
        CeleryAmqpMessage message = amqp("{\"args\": [\"é😀\"], \"kwargs\": {\"city\": \"東京\"}}", null);

        // [["é😀"], {"city": "東京"}, {...}]: é = c3 a9, 😀 = f0 9f 98 80, 東 = e6 9d b1, 京 = e4 ba ac
        assertThat(HexFormat.of().formatHex(message.body(), 0, 32))
                .isEqualTo("5b5b22c3a9f09f9880225d2c207b2263697479223a2022e69db1e4baac227d2c");
        assertThat(message.headers()).containsEntry("argsrepr", "('é😀',)").containsEntry("kwargsrepr", "{'city': '東京'}");
    }

    @Test
    void declaresTheQueueAndExchangeAsCeleryDoes() {
        CeleryQueueDeclaration declaration = amqp("{\"args\": [], \"kwargs\": {}}", null).declaration();

        assertThat(declaration).isEqualTo(new CeleryQueueDeclaration(
                "reminders", "direct", true, "reminders", true, false, false, Map.of(), "reminders"));
    }

    @Test
    void republishingTheSameTaskGivesAnIdenticalMessage() {
        CeleryAmqpMessage first = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);
        CeleryAmqpMessage again = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(again).isEqualTo(first);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers()).containsExactlyEntriesOf(first.headers());
    }

    @Test
    void notBeforeNeverBecomesABrokerSideEta() {
        CeleryAmqpMessage message = amqp("{\"args\": [2, 3], \"kwargs\": {}}", Instant.parse("2026-11-29T09:00:00Z"));

        assertThat(message).isEqualTo(amqp("{\"args\": [2, 3], \"kwargs\": {}}", null));
        assertThat(message.headers()).containsEntry("eta", null);
    }

    @Test
    void bodyAccessorReturnsACopy() {
        CeleryAmqpMessage message = amqp("{\"args\": [2, 3], \"kwargs\": {}}", null);

        message.body()[0] = 'X';

        assertThat(message.body()[0]).isEqualTo((byte) '[');
    }
}
