package dev.onebeat.worker.effect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class EffectSenderIT {

    private static HikariDataSource dataSource;
    private static EffectRows rows;
    private HttpStub stub;
    private final List<String> counted = new CopyOnWriteArrayList<>();
    private final WorkerMetrics metrics = new WorkerMetrics() {
        @Override
        public void processed(String consumer, String task) {
            counted.add("processed " + consumer + " " + task);
        }

        @Override
        public void retried(String consumer, String task) {
            counted.add("retried " + consumer + " " + task);
        }

        @Override
        public void dead(String consumer, String task) {
            counted.add("dead " + consumer + " " + task);
        }
    };

    @BeforeAll
    static void migrate(TestDatabase database) {
        dataSource = WorkerSchema.migrated(database);
        rows = new EffectRows(dataSource);
    }

    @AfterAll
    static void closeDataSource() {
        dataSource.close();
    }

    @BeforeEach
    void startStub() throws Exception {
        stub = new HttpStub();
    }

    @AfterEach
    void stopStubAndForgetEffects() throws Exception {
        stub.close();
        // the tests share one database; a pending leftover would be delivered by the next test's sender
        rows.execute("DELETE FROM onebeat_effect");
    }

    @Test
    void serverErrorIsRetriedAfterBackoffWithTheSameIdempotencyKey() throws Exception {
        stub.answer(503);
        rows.recordCommitted(webhook("payment:7/capture"));
        EffectSender sender = sender("payments").build();

        sender.sendDue();
        assertThat(rows.row("payment:7/capture")).extracting(EffectRows.Row::status, EffectRows.Row::attempts)
                .containsExactly("pending", 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            sender.sendDue();
            return "sent".equals(rows.row("payment:7/capture").status());
        });

        assertThat(stub.requests()).extracting(HttpStub.Request::idempotencyKey)
                .containsExactly("payment:7/capture", "payment:7/capture");
        assertThat(rows.row("payment:7/capture")).extracting(EffectRows.Row::attempts).isEqualTo(2);
        assertThat(counted).containsExactly("retried payments webhook", "processed payments webhook");
    }

    @Test
    void clientErrorMakesTheEffectDeadAtOnceKeepingTheError() throws Exception {
        stub.answer(400);
        rows.recordCommitted(webhook("payment:8/capture"));
        EffectSender sender = sender("payments").build();

        sender.sendDue();
        sender.sendDue();

        assertThat(stub.requests()).hasSize(1);
        EffectRows.Row row = rows.row("payment:8/capture");
        assertThat(row.status()).isEqualTo("dead");
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.lastError()).contains("HTTP 400");
        assertThat(counted).containsExactly("dead payments webhook");
    }

    @Test
    void lastFailedAttemptMakesTheEffectDead() throws Exception {
        stub.answer(500, 500);
        rows.recordCommitted(webhook("payment:9/capture"));
        EffectSender sender = sender("payments").maxAttempts(2).build();

        await().atMost(Duration.ofSeconds(20)).until(() -> {
            sender.sendDue();
            return "dead".equals(rows.row("payment:9/capture").status());
        });

        assertThat(stub.requests()).hasSize(2);
        assertThat(rows.row("payment:9/capture").lastError()).contains("HTTP 500");
    }

    @Test
    void twoStartedSendersDeliverEachEffectOnce() throws Exception {
        List<String> keys = IntStream.rangeClosed(1, 200).mapToObj(i -> "bulk/user:" + i).toList();
        for (String key : keys) {
            rows.recordCommitted(webhook(key));
        }
        stub.delayAnswers(2);

        try (EffectSender one = sender("bulk").batchSize(10).pollInterval(Duration.ofMillis(50)).build();
             EffectSender two = sender("bulk").batchSize(10).pollInterval(Duration.ofMillis(50)).build()) {
            one.start();
            two.start();
            await().atMost(Duration.ofMinutes(1)).until(() -> rows.count("idempotency_key LIKE 'bulk/%' AND status = 'sent'") == 200);
        }

        assertThat(stub.requestsPerKey()).hasSize(200).allSatisfy((key, count) -> assertThat(count).isEqualTo(1));
        assertThat(stub.requestsPerKey().keySet()).containsExactlyInAnyOrderElementsOf(keys);
    }

    @Test
    void senderWhoseLeaseWasTakenOverDoesNotMarkTheEffectSent() throws Exception {
        rows.recordCommitted(webhook("push:5/lease"));
        EffectSender slow = EffectSender.builder(dataSource)
                .delivery("webhook", effect -> rows.execute(
                        "UPDATE onebeat_effect SET locked_by = 'another-sender' WHERE id = " + effect.id()))
                .metrics(metrics)
                .build();

        slow.sendDue();

        assertThat(rows.row("push:5/lease").status()).isEqualTo("sending");
        assertThat(rows.count("idempotency_key = 'push:5/lease' AND locked_by = 'another-sender'")).isEqualTo(1);
        assertThat(counted).isEmpty();
    }

    @Test
    void effectWhoseSendersAllDiedIsDeadOnceItsAttemptsAreUsedUp() throws Exception {
        rows.recordCommitted(webhook("push:6/crashes"));
        rows.execute("UPDATE onebeat_effect SET status = 'sending', attempts = 2, locked_by = 'gone',"
                + " locked_until = now() - interval '1 second' WHERE idempotency_key = 'push:6/crashes'");

        sender("crashes").maxAttempts(2).build().sendDue();

        assertThat(stub.requests()).isEmpty();
        assertThat(rows.row("push:6/crashes")).extracting(EffectRows.Row::status, EffectRows.Row::attempts)
                .containsExactly("dead", 3);
        assertThat(rows.row("push:6/crashes").lastError()).contains("attempts exhausted");
    }

    @Test
    void closeFinishesTheDeliveryInProgressAndHandsBackTheRestWithoutSpendingAnAttempt() throws Exception {
        for (int i = 1; i <= 5; i++) {
            rows.recordCommitted(webhook("close/" + i));
        }
        stub.delayAnswers(1_000);
        EffectSender sender = sender("close").batchSize(5).build();

        sender.start();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> !stub.requests().isEmpty());
        sender.close();

        long sent = rows.count("idempotency_key LIKE 'close/%' AND status = 'sent'");
        assertThat(sent).isPositive().isEqualTo(stub.requests().size());
        assertThat(rows.count("idempotency_key LIKE 'close/%' AND status = 'pending' AND attempts = 0"
                + " AND locked_by IS NULL")).isEqualTo(5 - sent);
    }

    private EffectSender.Builder sender(String name) {
        return EffectSender.builder(dataSource)
                .name(name)
                .delivery("webhook", new HttpEffectDelivery(Duration.ofSeconds(5)))
                .backoff(Duration.ofMillis(50), Duration.ofMillis(200))
                .metrics(metrics);
    }

    private Effect webhook(String key) {
        return new Effect(key, "webhook", stub.url(), "{\"key\":\"" + key + "\"}");
    }
}
