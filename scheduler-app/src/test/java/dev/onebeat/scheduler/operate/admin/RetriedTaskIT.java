package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import dev.onebeat.scheduler.engine.outbox.TaskView;
import dev.onebeat.worker.queue.TaskHandler;
import dev.onebeat.worker.queue.TaskQueueWorker;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A dead task of the in-database queue that an operator retries is run again by a real
 * {@link TaskQueueWorker} with all of its attempts, not buried unrun as if its last lease had expired.
 * Each test has a queue of its own and a worker that keeps running across the retry.
 */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class RetriedTaskIT {

    private static final int MAX_ATTEMPTS = 2;
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    TaskAdmin admin;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcClient jdbc;


    @Test
    void deadTaskRetriedByAnOperatorIsRunOnceMoreAndDone() {
        String queue = "retried-" + UUID.randomUUID();
        long id = task(queue);
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean fixed = new AtomicBoolean();
        try (TaskQueueWorker worker = worker(queue, (task, tx) -> {
            runs.incrementAndGet();
            if (!fixed.get()) {
                throw new IllegalStateException("smtp refused attempt " + task.attempt());
            }
        })) {
            worker.start();
            await().atMost(WAIT).until(() -> "dead".equals(row(id).status()));
            fixed.set(true);

            TaskView retried = admin.retry(id);

            assertThat(retried.status()).isEqualTo("pending");
            assertThat(retried.attempts()).isZero();
            await().atMost(WAIT).until(() -> "done".equals(row(id).status()));
        }
        Row done = row(id);
        assertThat(runs).as("handler runs: every attempt before the retry, then one").hasValue(MAX_ATTEMPTS + 1);
        assertThat(done.attempts()).isEqualTo(1);
        assertThat(done.lastError()).doesNotContain("lease expired");
    }

    @Test
    void retriedTaskThatFailsAgainUsesAllItsAttemptsBeforeItIsDeadAgain() {
        String queue = "retried-" + UUID.randomUUID();
        long id = task(queue);
        AtomicInteger runs = new AtomicInteger();
        try (TaskQueueWorker worker = worker(queue, (task, tx) -> {
            runs.incrementAndGet();
            throw new IllegalStateException("smtp refused attempt " + task.attempt());
        })) {
            worker.start();
            await().atMost(WAIT).until(() -> "dead".equals(row(id).status()));

            admin.retry(id);

            await().atMost(WAIT).until(() -> runs.get() == 2 * MAX_ATTEMPTS && "dead".equals(row(id).status()));
        }
        Row dead = row(id);
        assertThat(dead.attempts()).isEqualTo(MAX_ATTEMPTS);
        assertThat(dead.lastError()).contains("smtp refused attempt " + MAX_ATTEMPTS).doesNotContain("lease expired");
        assertThat(runs).hasValue(2 * MAX_ATTEMPTS);
    }

    private TaskQueueWorker worker(String queue, TaskHandler handler) {
        return TaskQueueWorker.builder(dataSource)
                .consumer("mailer")
                .queues(queue)
                .concurrency(1)
                .maxAttempts(MAX_ATTEMPTS)
                .pollInterval(Duration.ofMillis(50))
                .backoff(Duration.ofMillis(10), Duration.ofMillis(50))
                .handler("send_reminder", handler)
                .build();
    }

    private long task(String queue) {
        return jdbc.sql("""
                        INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload)
                        VALUES (?, 'reminders', now(), 'send_reminder', ?, '{"args":[],"kwargs":{}}'::jsonb)
                        RETURNING id""")
                .params(UUID.randomUUID().toString(), queue)
                .query(Long.class).single();
    }

    private Row row(long id) {
        return jdbc.sql("SELECT status, attempts, last_error FROM onebeat_task WHERE id = ?").param(id)
                .query(Row.class).single();
    }

    private record Row(String status, int attempts, String lastError) {
    }
}
