package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.transport.testing.RabbitTestBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A task dispatched with {@code notBefore} is held in the outbox and handed to the broker only once
 * due: no broker ever sees an ETA (Celery over Redis would run such a task twice past its visibility
 * timeout). Judged by the database's clock, which sets both {@code available_at} and {@code published_at}.
 */
@ExtendWith(PostgresExtension.class)
@DirtiesContext
@SpringBootTest(properties = SchedulerTestDatabase.NO_DEMO)
class RelayDelayIT {

    private static final RabbitTestBroker BROKER = new RabbitTestBroker();
    private static final String QUEUE = BROKER.newQueueName("delay");
    private static final Duration DELAY = Duration.ofSeconds(4);

    @TestConfiguration
    static class DelayedJob {
        @Bean
        PeriodicJob delayedReminder() {
            // fires every 10 s; each fire asks for its task 4 s after the scheduled instant
            return Jobs.periodic("delayed-reminder", Schedule.every(Duration.ofSeconds(10))).execute(context ->
                    context.dispatch(TaskRequest.builder("reminders.send").queue(QUEUE)
                            .notBefore(context.scheduledAt().plus(DELAY)).build()));
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, RelayDelayIT.class);
        TestRoutes.route(registry, "rabbit", "rabbitmq", RabbitTestBroker.URL, "amqp", QUEUE);
        registry.add("onebeat.relay.poll-interval", () -> "200ms");
    }

    @AfterAll
    static void deleteQueues() throws Exception {
        BROKER.close();
    }

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aDelayedTaskWaitsInTheOutboxAndGoesOutWhenDue() throws Exception {
        // a committed row that is not due yet: pending, and nothing in the queue
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM onebeat_task WHERE status = 'pending' AND available_at > now() + interval '1 second'",
                Integer.class) > 0);
        assertThat(BROKER.count(QUEUE)).isZero();

        await().atMost(Duration.ofSeconds(20)).until(() -> BROKER.count(QUEUE) >= 1);
        // the relay marks a row published after the broker's confirm, so the message can be in the queue
        // a moment before its row says so
        List<Map<String, Object>> published = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> jdbc.queryForList("""
                        SELECT scheduled_at, available_at, published_at FROM onebeat_task WHERE status = 'published'"""),
                        rows -> !rows.isEmpty());
        assertThat(published).isNotEmpty().allSatisfy(row -> {
            java.sql.Timestamp scheduled = (java.sql.Timestamp) row.get("scheduled_at");
            java.sql.Timestamp available = (java.sql.Timestamp) row.get("available_at");
            java.sql.Timestamp at = (java.sql.Timestamp) row.get("published_at");
            assertThat(available.toInstant()).isEqualTo(scheduled.toInstant().plus(DELAY));
            assertThat(at.toInstant()).isAfterOrEqualTo(available.toInstant());
        });
    }
}
