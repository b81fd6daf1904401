package dev.onebeat.transport.celery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CeleryRedisEnvelopeTest {

    /**
     * Checked field by field against the envelope captured from real Celery in wire-formats.md 1.3:
     * same keys in the same order, the same base64 body for {@code add(2, 3)}; ours has no
     * {@code reply_to}, a delivery tag derived from the key, and the extra {@code idempotency_key} and
     * {@code scheduled_at}.
     */
    private static final String ADD_ENVELOPE = "{"
            + "\"body\": \"W1syLCAzXSwge30sIHsiY2FsbGJhY2tzIjogbnVsbCwgImVycmJhY2tzIjogbnVsbCwgImNoYWluIjogbnVsbCwgImNob3JkIjogbnVsbH1d\", "
            + "\"content-encoding\": \"utf-8\", "
            + "\"content-type\": \"application/json\", "
            + "\"headers\": {\"lang\": \"py\", \"task\": \"proj.tasks.add\", \"id\": \"99b5a4eb-7da1-561e-9dae-46d2a0cb7e8c\", "
            + "\"shadow\": null, \"eta\": null, \"expires\": null, \"group\": null, \"group_index\": null, \"retries\": 0, "
            + "\"timelimit\": [null, null], \"root_id\": \"99b5a4eb-7da1-561e-9dae-46d2a0cb7e8c\", \"parent_id\": null, "
            + "\"argsrepr\": \"(2, 3)\", \"kwargsrepr\": \"{}\", \"origin\": \"onebeat@node-1\", \"ignore_result\": false, "
            + "\"replaced_task_nesting\": 0, \"stamped_headers\": null, \"stamps\": {}, "
            + "\"idempotency_key\": \"invoice-reminders/2026-11-29T08:00:00Z/proj.tasks.add/order:42\", "
            + "\"scheduled_at\": \"2026-11-29T08:00:00Z\"}, "
            + "\"properties\": {\"correlation_id\": \"99b5a4eb-7da1-561e-9dae-46d2a0cb7e8c\", \"delivery_mode\": 2, "
            + "\"delivery_info\": {\"exchange\": \"\", \"routing_key\": \"reminders\"}, \"priority\": 0, "
            + "\"body_encoding\": \"base64\", \"delivery_tag\": \"2b1890c2-ec21-391a-91d1-8dd472ca3e05\"}"
            + "}";

    private static CeleryRedisEnvelope envelope(String payloadJson, Instant notBefore) {
        return CeleryRedisEnvelope.of(CeleryMessage.of(CeleryFixtures.task(payloadJson, notBefore), CeleryFixtures.ORIGIN));
    }

    @Test
    void envelopeIsExactlyTheGoldenJson() {
        CeleryRedisEnvelope envelope = envelope("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(envelope.json()).isEqualTo(ADD_ENVELOPE);
        assertThat(envelope.listKey()).isEqualTo("reminders");
    }

    @Test
    void deliveryTagIsANameBasedUuidOfTheKeyDistinctFromTheTaskId() {
        // Python: md5(b"onebeat/celery/delivery_tag/" + key) with version 3 and the RFC 4122 variant set
        assertThat(CeleryRedisEnvelope.deliveryTag("invoice-reminders/2026-11-29T08:00:00Z/proj.tasks.add/order:42"))
                .isEqualTo("2b1890c2-ec21-391a-91d1-8dd472ca3e05")
                .isNotEqualTo("99b5a4eb-7da1-561e-9dae-46d2a0cb7e8c");
    }

    @Test
    void republishingTheSameTaskGivesAByteIdenticalEnvelope() {
        CeleryRedisEnvelope first = envelope("{\"args\": [2, 3], \"kwargs\": {}}", null);
        CeleryRedisEnvelope again = envelope("{\"args\": [2, 3], \"kwargs\": {}}", null);

        assertThat(again.json().getBytes(StandardCharsets.UTF_8)).isEqualTo(first.json().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void notBeforeNeverBecomesABrokerSideEta() {
        CeleryRedisEnvelope envelope = envelope("{\"args\": [2, 3], \"kwargs\": {}}", Instant.parse("2026-11-29T09:00:00Z"));

        assertThat(envelope.json()).isEqualTo(ADD_ENVELOPE).contains("\"eta\": null");
    }

    @Test
    void unicodePayloadIsBase64OfItsUtf8Body() {
        CeleryRedisEnvelope envelope = envelope("{\"args\": [\"é😀\"], \"kwargs\": {\"city\": \"東京\"}}", null);

        // base64 of [["é😀"], {"city": "東京"}, {"callbacks": null, ...}] in UTF-8
        assertThat(envelope.json()).startsWith("{\"body\": \"W1siw6nwn5iAIl0sIHsiY2l0eSI6ICLmnbHkuqwifSwg")
                .contains("\"argsrepr\": \"('é😀',)\", \"kwargsrepr\": \"{'city': '東京'}\"");
        String body = envelope.json().substring(10, envelope.json().indexOf('"', 10));
        assertThat(new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8)).isEqualTo(
                "[[\"é😀\"], {\"city\": \"東京\"}, {\"callbacks\": null, \"errbacks\": null, \"chain\": null, \"chord\": null}]");
    }

    @Nested
    class ListKey {

        @ParameterizedTest
        @CsvSource({"-1, reminders", "0, reminders", "2, reminders"})
        void priorityBelowTheFirstStepUsesThePlainQueue(int priority, String expected) {
            assertThat(CeleryRedisEnvelope.listKey("reminders", priority)).isEqualTo(expected);
        }

        @ParameterizedTest
        @CsvSource({"3, 3", "5, 3", "6, 6", "8, 6", "9, 9", "42, 9"})
        void priorityRoundsDownToKombusStepAfterTheSeparator(int priority, String step) {
            assertThat(CeleryRedisEnvelope.listKey("reminders", priority)).isEqualTo("reminders\u0006\u0016" + step);
        }
    }
}
