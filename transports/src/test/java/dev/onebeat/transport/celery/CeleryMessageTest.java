package dev.onebeat.transport.celery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.onebeat.job.IdempotencyKey;
import dev.onebeat.transport.OutboundTask;
import dev.onebeat.transport.TaskPayload;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CeleryMessageTest {

    private static final String TASK_ID = CeleryFixtures.TASK_ID;
    private static final String KEY = CeleryFixtures.KEY;

    @Test
    void taskIdIsTheUuidV5OfTheIdempotencyKey() {
        // uuid.uuid5(UUID("0a6e5be7-1f1d-4c8b-9d2e-6f6e65626561"), KEY) in Python gives the same
        CeleryMessage message = CeleryMessage.of(CeleryFixtures.add(), CeleryFixtures.ORIGIN);

        assertThat(message.taskId()).isEqualTo(TASK_ID);
        assertThat(message.idempotencyKey()).isEqualTo(KEY);
    }

    @Test
    void headersAreEveryKeyCelerySendsInItsOrderPlusTheKeyAndTheScheduledInstant() {
        CeleryMessage message = CeleryMessage.of(CeleryFixtures.add(), CeleryFixtures.ORIGIN);

        assertThat(message.headers()).containsExactly(CeleryFixtures.addHeaders());
    }

    @Test
    void scheduledAtHeaderIsTheFiresInstantAsIsoUtcText() {
        Instant scheduledAt = Instant.parse("2026-11-29T08:00:00.120Z");
        OutboundTask task = new OutboundTask(IdempotencyKey.of("manual", scheduledAt, "r1", "proj.tasks.add", null),
                "manual", scheduledAt, "proj.tasks.add", "reminders", null, null, TaskPayload.of("[]", "{}"), null);

        assertThat(CeleryMessage.of(task, CeleryFixtures.ORIGIN).headers())
                .containsEntry(CeleryMessage.SCHEDULED_AT_HEADER, "2026-11-29T08:00:00.120Z");
    }

    @Test
    void bodyIsByteForByteWhatCeleryWritesForTheSameArguments() {
        CeleryMessage message = CeleryMessage.of(CeleryFixtures.add(), CeleryFixtures.ORIGIN);

        assertThat(new String(message.body(), StandardCharsets.UTF_8))
                .isEqualTo("[[2, 3], {}, {\"callbacks\": null, \"errbacks\": null, \"chain\": null, \"chord\": null}]");
    }

    @Test
    void etaStaysNullWhenTheTaskHasANotBeforeTime() {
        CeleryMessage message = CeleryMessage.of(
                CeleryFixtures.task("{\"args\": [], \"kwargs\": {}}", Instant.parse("2026-11-29T09:00:00Z")),
                CeleryFixtures.ORIGIN);

        assertThat(message.headers()).containsEntry("eta", null).containsEntry("expires", null);
    }

    @Test
    void reprHeadersFollowPythonForUnicodeQuotesFloatsAndLiterals() {
        CeleryMessage message = CeleryMessage.of(CeleryFixtures.task(
                "{\"args\": [\"Zoë → 東京 😀\", 1.5, 2.0, \"it's\", true, null],"
                        + " \"kwargs\": {\"note\": \"a\\nb\", \"n\": [1, {\"x\": 0.0001}], \"big\": 1e20}}", null),
                CeleryFixtures.ORIGIN);

        // repr(tuple(args)) and repr(kwargs) as Python 3 prints them
        assertThat(message.headers())
                .containsEntry("argsrepr", "('Zoë → 東京 😀', 1.5, 2.0, \"it's\", True, None)")
                .containsEntry("kwargsrepr", "{'note': 'a\\nb', 'n': [1, {'x': 0.0001}], 'big': 1e+20}");
    }

    @Test
    void singleArgumentIsReprOfAOneElementTuple() {
        CeleryMessage message = CeleryMessage.of(CeleryFixtures.task("{\"args\": [7], \"kwargs\": {}}", null),
                CeleryFixtures.ORIGIN);

        assertThat(message.headers()).containsEntry("argsrepr", "(7,)");
    }

    @Test
    void longArgumentsAreCutInTheReprButNotInTheBody() {
        String longText = "x".repeat(2000);
        CeleryMessage message = CeleryMessage.of(
                CeleryFixtures.task("{\"args\": [\"" + longText + "\"], \"kwargs\": {}}", null), CeleryFixtures.ORIGIN);

        assertThat((String) message.headers().get("argsrepr")).hasSize(CeleryMessage.REPR_MAX_LENGTH).endsWith("...");
        assertThat(new String(message.body(), StandardCharsets.UTF_8)).contains(longText);
    }

    @Test
    void payloadWithoutKwargsHasNoneAsEveryOtherTransportReadsIt() {
        CeleryMessage message = CeleryMessage.of(CeleryFixtures.task("{\"args\": [1]}", null), CeleryFixtures.ORIGIN);

        assertThat(new String(message.body(), StandardCharsets.UTF_8)).startsWith("[[1], {}, ");
    }

    @Test
    void argumentsThatAreNotJsonAreRejectedNamingTheKey() {
        OutboundTask task = new OutboundTask(CeleryFixtures.add().key(), "invoice-reminders", CeleryFixtures.SCHEDULED_AT,
                "proj.tasks.add", "reminders", null, null, TaskPayload.of("[1, ", "{}"), null);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> CeleryMessage.of(task, CeleryFixtures.ORIGIN))
                .withMessageContaining(KEY)
                .withMessageContaining("is not JSON");
    }

    @Test
    void blankOriginIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CeleryMessage.of(CeleryFixtures.add(), " "))
                .withMessage("origin must not be blank, was ' '");
    }
}
