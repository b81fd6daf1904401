package dev.onebeat.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.onebeat.job.DeliveryOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class TaskPayloadTest {

    private static final Instant FIRED = Instant.parse("2026-11-29T08:00:03.250Z");

    @Nested
    class StoredForm {

        @Test
        void argumentsOnlyAreWrittenWithoutDelivery() {
            assertThat(TaskPayload.of("[1,\"a\"]", "{\"x\":true}").toJson())
                    .isEqualTo("{\"args\":[1,\"a\"],\"kwargs\":{\"x\":true}}");
        }

        @Test
        void deliveryOptionsAndExpiresFromAreWrittenUnderDeliveryInTheirOrder() {
            TaskPayload payload = new TaskPayload("[]", "{}", new DeliveryOptions(Duration.ofMinutes(5), 2, "x", "y",
                    Map.of("tenant", "acme")), FIRED);

            assertThat(payload.toJson()).isEqualTo("{\"args\":[],\"kwargs\":{},\"delivery\":{\"expires\":\"PT5M\","
                    + "\"priority\":2,\"exchange\":\"x\",\"routing_key\":\"y\",\"headers\":{\"tenant\":\"acme\"},"
                    + "\"expires_from\":\"2026-11-29T08:00:03.250Z\"}}");
        }

        @Test
        void whatIsWrittenReadsBackEqual() {
            TaskPayload payload = new TaskPayload("[1.10,{\"n\":12345678901234567890}]", "{\"é\":\"ü\"}",
                    new DeliveryOptions(Duration.ofSeconds(30), null, null, "urgent", Map.of()), FIRED);

            assertThat(TaskPayload.fromJson(payload.toJson())).isEqualTo(payload);
        }
    }

    @Nested
    class RowsOfEarlierVersions {

        @Test
        void aRowAsPostgresqlReturnsItKeepsTheArgumentsTextAsStored() {
            // jsonb's own layout: ", " and ": ", keys shortest first
            TaskPayload payload = TaskPayload.fromJson("{\"args\": [42, 1.50, \"é\"], \"kwargs\": {\"late\": true}, "
                    + "\"delivery\": {\"expires\": \"PT1H\", \"headers\": {\"tenant\": \"acme\"}, \"priority\": 3}}");

            assertThat(payload.argsJson()).isEqualTo("[42, 1.50, \"é\"]");
            assertThat(payload.kwargsJson()).isEqualTo("{\"late\": true}");
            assertThat(payload.delivery()).isEqualTo(new DeliveryOptions(Duration.ofHours(1), 3, null, null,
                    Map.of("tenant", "acme")));
            assertThat(payload.expiresFrom()).isNull();
        }

        @Test
        void aRowWithoutDeliveryHasNone() {
            TaskPayload payload = TaskPayload.fromJson("{\"args\": [], \"kwargs\": {}}");

            assertThat(payload.delivery()).isSameAs(DeliveryOptions.NONE);
            assertThat(payload.expiryOrigin(FIRED)).isEqualTo(FIRED);
        }

        @Test
        void missingOrNullArgumentsAreNone() {
            assertThat(TaskPayload.fromJson("{}")).isEqualTo(TaskPayload.of("[]", "{}"));
            assertThat(TaskPayload.fromJson("{\"args\": null, \"kwargs\": null, \"delivery\": null}"))
                    .isEqualTo(TaskPayload.of("[]", "{}"));
        }

        @Test
        void anOperatorsFireSaysWhenItsExpiryCountsFrom() {
            TaskPayload payload = TaskPayload.fromJson("{\"args\": [], \"delivery\": {\"expires_from\": "
                    + "\"2026-11-29T08:00:03.250Z\"}, \"kwargs\": {}}");

            assertThat(payload.expiresFrom()).isEqualTo(FIRED);
            assertThat(payload.expiryOrigin(Instant.EPOCH)).isEqualTo(FIRED);
            assertThat(payload.delivery()).isEqualTo(new DeliveryOptions(null, null, null, null, Map.of()));
        }

        @Test
        void unknownFieldsAreSkipped() {
            assertThat(TaskPayload.fromJson("{\"note\": {\"a\": [1, 2]}, \"args\": [3], \"kwargs\": {}}").argsJson())
                    .isEqualTo("[3]");
        }
    }

    @Nested
    class MalformedPayloads {

        @Test
        void argsThatAreNotAnArrayAreRejectedNamingTheFieldAndValue() {
            assertThatIllegalArgumentException().isThrownBy(() -> TaskPayload.fromJson("{\"args\": 5, \"kwargs\": {}}"))
                    .withMessage("args: must be a JSON array, was 5");
        }

        @Test
        void kwargsThatAreNotAnObjectAreRejectedNamingTheFieldAndValue() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> TaskPayload.fromJson("{\"args\": [], \"kwargs\": [\"a\"]}"))
                    .withMessage("kwargs: must be a JSON object, was [\"a\"]");
        }

        @Test
        void aPayloadThatIsNotAnObjectIsRejected() {
            assertThatIllegalArgumentException().isThrownBy(() -> TaskPayload.fromJson("[1]"))
                    .withMessage("not a JSON object: [1]");
        }

        @Test
        void textThatIsNotJsonIsRejected() {
            assertThatIllegalArgumentException().isThrownBy(() -> TaskPayload.fromJson("{\"args\": [1,"))
                    .withMessageStartingWith("not JSON: {\"args\": [1,");
        }

        @Test
        void anExpiryThatIsNotADurationIsRejectedNamingIt() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> TaskPayload.fromJson("{\"delivery\": {\"expires\": \"soon\"}}"))
                    .withMessage("delivery.expires: not an ISO-8601 duration: \"soon\"");
        }

        @Test
        void anExpiresFromThatIsNotAnInstantIsRejectedNamingIt() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> TaskPayload.fromJson("{\"delivery\": {\"expires_from\": \"yesterday\"}}"))
                    .withMessage("delivery.expires_from: not an ISO-8601 instant: \"yesterday\"");
        }

        @Test
        void argumentsOfTheWrongShapeAreRejectedWhenTheValueIsMade() {
            assertThatIllegalArgumentException().isThrownBy(() -> TaskPayload.of("{}", "{}"))
                    .withMessage("argsJson: must be a JSON array, was {}");
        }
    }
}
