package dev.onebeat.worker.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import dev.onebeat.worker.effect.EffectSender;
import dev.onebeat.worker.journal.ProcessedJournal;
import dev.onebeat.worker.metrics.MicrometerWorkerMetrics;
import dev.onebeat.worker.metrics.WorkerMetrics;
import dev.onebeat.worker.queue.TaskQueueWorker;
import dev.onebeat.worker.throttle.Throttle;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

@ExtendWith(PostgresExtension.class)
class WorkerKitAutoConfigurationIT {

    private static HikariDataSource dataSource;
    private static TestDatabase database;

    // an unpooled data source for the contexts: closing a context must not close the test's pool
    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WorkerKitAutoConfiguration.class))
            .withBean(DataSource.class, () -> database.dataSource());

    @BeforeAll
    static void migrate(TestDatabase testDatabase) {
        database = testDatabase;
        dataSource = WorkerSchema.migrated(testDatabase);
    }

    @AfterAll
    static void close() {
        dataSource.close();
    }

    @Test
    void withoutQueuesOrChannelsOnlyJournalThrottleAndMetricsAreConfigured() {
        contexts.run(context -> {
            assertThat(context).hasSingleBean(ProcessedJournal.class).hasSingleBean(Throttle.class)
                    .doesNotHaveBean(TaskQueueWorker.class).doesNotHaveBean(EffectSender.class);
            assertThat(context.getBean(WorkerMetrics.class)).isSameAs(WorkerMetrics.NOOP);
        });
    }

    @Test
    void meterRegistryInTheContextGetsTheWorkerMetrics() {
        contexts.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context ->
                assertThat(context.getBean(WorkerMetrics.class)).isInstanceOf(MicrometerWorkerMetrics.class));
    }

    @Test
    void configuredQueuesStartAWorkerThatRunsTheHandlerBeans() throws Exception {
        insertTask("auto/1", "auto-queue");
        AtomicInteger handled = new AtomicInteger();
        contexts.withPropertyValues("onebeat.worker.queues=auto-queue", "onebeat.worker.consumer=auto")
                .withBean(QueueHandler.class, () -> new QueueHandler("auto.task", (task, tx) -> handled.incrementAndGet()))
                .run(context -> {
                    assertThat(context).hasSingleBean(TaskQueueWorker.class);
                    await().atMost(Duration.ofSeconds(20)).until(() -> "done".equals(status("auto/1")));
                });
        assertThat(handled).hasValue(1);
    }

    @Test
    void channelBeanStartsAnEffectSender() {
        contexts.withBean(EffectChannel.class, () -> new EffectChannel("log", effect -> { }))
                .run(context -> assertThat(context).hasSingleBean(EffectSender.class));
    }

    private static void insertTask(String key, String queue) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("""
                     INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload)
                     VALUES (?, 'job', now(), 'auto.task', ?, '{"args":[],"kwargs":{}}')
                     """)) {
            insert.setString(1, key);
            insert.setString(2, queue);
            insert.executeUpdate();
        }
    }

    private static String status(String key) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT status FROM onebeat_task WHERE idempotency_key = ?")) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }
}
