package dev.onebeat.worker.effect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import dev.onebeat.worker.WorkerSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class EffectSenderCrashIT {

    private static final long LEASE_MILLIS = 2_000;

    @Test
    void senderKilledAfterTheCallButBeforeMarkingSentIsRetriedWithTheSameKey(TestDatabase database) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "effect-crash"));
        Path marker = dir.resolve("delivered.marker");
        Files.deleteIfExists(marker);
        try (HikariDataSource dataSource = WorkerSchema.migrated(database); HttpStub stub = new HttpStub()) {
            EffectRows rows = new EffectRows(dataSource);
            rows.recordCommitted(new Effect("payment:42/capture", "webhook", stub.url(), "{\"amount\":100}"));

            JavaProcess crashing = start(database, marker, dir.resolve("crashing-sender.log"));
            try {
                await().atMost(Duration.ofMinutes(2)).until(() -> Files.exists(marker));
            } finally {
                crashing.kill();
            }
            assertThat(stub.requests()).hasSize(1);
            assertThat(rows.row("payment:42/capture").status()).isEqualTo("sending");

            EffectSender survivor = EffectSender.builder(dataSource)
                    .delivery("webhook", new HttpEffectDelivery(Duration.ofSeconds(5)))
                    .build();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                survivor.sendDue();
                return "sent".equals(rows.row("payment:42/capture").status());
            });

            assertThat(stub.requests()).extracting(HttpStub.Request::idempotencyKey)
                    .containsExactly("payment:42/capture", "payment:42/capture");
            assertThat(rows.row("payment:42/capture")).isEqualTo(new EffectRows.Row("sent", 2, null, true));
            assertThat(rows.count("status = 'sent'")).isEqualTo(1);
        }
    }

    private static JavaProcess start(TestDatabase database, Path marker, Path log) {
        return JavaLauncher.mainClass("crashing-sender", CrashingSenderMain.class)
                .jvmOptions("-Xmx128m")
                .arguments(database.jdbcUrl(), database.username(), database.password(), marker.toString(),
                        Long.toString(LEASE_MILLIS))
                .log(log)
                .start();
    }
}
