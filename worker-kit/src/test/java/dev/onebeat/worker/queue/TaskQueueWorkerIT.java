package dev.onebeat.worker.queue;

import dev.onebeat.worker.CountingMetrics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One worker on a real database; each test uses a queue of its own. */
@ExtendWith(PostgresExtension.class)
class TaskQueueWorkerIT {

    private static HikariDataSource dataSource;
    private static QueueTables tables;

    private final CountingMetrics metrics = new CountingMetrics();

    @BeforeAll
    static void migrate(TestDatabase database) {
        dataSource = WorkerSchema.migrated(database);
        tables = new QueueTables(dataSource);
    }

    @AfterAll
    static void closeDataSource() {
        dataSource.close();
    }

    private TaskQueueWorkerBuilder worker(String queue) {
        return TaskQueueWorker.builder(dataSource)
                .consumer("billing")
                .queues(queue)
                .concurrency(2)
                .pollInterval(Duration.ofMillis(50))
                .backoff(Duration.ofMillis(10), Duration.ofMillis(50))
                .metrics(metrics);
    }

    @Test
    void handledTaskIsDoneOnceWithItsEffectAndJournalEntry() {
        tables.insertTask("happy/1", "send_reminder", "happy");
        try (TaskQueueWorker worker = worker("happy")
                .handler("send_reminder", (task, tx) -> QueueTables.applyEffect(tx, task, "w")).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> "done".equals(tables.status("happy/1")));
        }
        assertThat(tables.effects("happy/1")).isEqualTo(1);
        assertThat(tables.attempts("happy/1")).isEqualTo(1);
        assertThat(tables.lockedBy("happy/1")).isNull();
        assertThat(tables.journalEntries("billing", "happy/1")).isEqualTo(1);
        assertThat(metrics.processed).hasValue(1);
    }

    @Test
    void effectOfAFailedAttemptRollsBackWithItsDoneMark() {
        tables.insertTask("atomic/1", "credit_bonus", "atomic");
        try (TaskQueueWorker worker = worker("atomic").handler("credit_bonus", (task, tx) -> {
            QueueTables.applyEffect(tx, task, "w");
            if (task.attempt() == 1) {
                throw new IllegalStateException("payment service timed out");
            }
        }).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> "done".equals(tables.status("atomic/1")));
        }
        assertThat(tables.effects("atomic/1")).isEqualTo(1);
        assertThat(tables.effectAttempt("atomic/1")).isEqualTo(2);
        assertThat(metrics.retried).hasValue(1);
        assertThat(metrics.processed).hasValue(1);
    }

    @Test
    void failingHandlerIsRetriedThenDeadWithItsLastError() {
        tables.insertTask("failing/1", "send_reminder", "failing");
        try (TaskQueueWorker worker = worker("failing").maxAttempts(3).handler("send_reminder", (task, tx) -> {
            throw new IllegalStateException("smtp refused attempt " + task.attempt());
        }).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> "dead".equals(tables.status("failing/1")));
        }
        assertThat(tables.attempts("failing/1")).isEqualTo(3);
        assertThat(tables.lastError("failing/1")).contains("IllegalStateException: smtp refused attempt 3");
        assertThat(tables.journalEntries("billing", "failing/1")).isZero();
        assertThat(metrics.retried).hasValue(2);
        assertThat(metrics.dead).hasValue(1);
    }

    @Test
    void failedAttemptIsRescheduledWithinItsBackoffCeiling() {
        tables.insertTask("backoff/1", "send_reminder", "backoff");
        try (TaskQueueWorker worker = worker("backoff").backoff(Duration.ofMinutes(5), Duration.ofMinutes(10))
                .handler("send_reminder", (task, tx) -> {
                    throw new IllegalStateException("smtp refused");
                }).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> tables.lastError("backoff/1") != null);
        }
        assertThat(tables.queryLong("""
                SELECT count(*) FROM onebeat_task WHERE idempotency_key = 'backoff/1'
                   AND available_at BETWEEN created_at AND now() + interval '5 minutes' AND locked_by IS NULL
                """)).isEqualTo(1);
        assertThat(metrics.retried.get()).isPositive();
    }

    @Test
    void taskWhoseLastAttemptDiedWithItsWorkerIsDeadWithoutAnotherRun() {
        tables.insertTask("poison/1", "send_reminder", "poison");
        tables.update("""
                UPDATE onebeat_task SET status = 'claimed', locked_by = 'crashed-worker', attempts = 3,
                       locked_until = now() - interval '1 second'
                 WHERE idempotency_key = 'poison/1'
                """);
        try (TaskQueueWorker worker = worker("poison").maxAttempts(3)
                .handler("send_reminder", (task, tx) -> QueueTables.applyEffect(tx, task, "w")).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> "dead".equals(tables.status("poison/1")));
        }
        assertThat(tables.effects("poison/1")).isZero();
        assertThat(tables.lastError("poison/1")).isEqualTo(
                "attempt 3 of 3 ended without a result: its lease expired (the worker died or stalled)");
        assertThat(metrics.dead).hasValue(1);
    }

    @Test
    void taskWithoutHandlerFailsWithAClearError() {
        tables.insertTask("unknown/1", "refund", "unknown");
        try (TaskQueueWorker worker = worker("unknown").maxAttempts(1)
                .handler("send_reminder", (task, tx) -> QueueTables.applyEffect(tx, task, "w")).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> "dead".equals(tables.status("unknown/1")));
        }
        assertThat(tables.lastError("unknown/1")).isEqualTo("no handler for task 'refund'");
        assertThat(metrics.dead).hasValue(1);
    }

    @Test
    void redeliveredProcessedTaskIsSkippedAsDuplicate() {
        tables.insertTask("redelivered/1", "send_reminder", "redelivered");
        try (TaskQueueWorker worker = worker("redelivered")
                .handler("send_reminder", (task, tx) -> QueueTables.applyEffect(tx, task, "w")).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> "done".equals(tables.status("redelivered/1")));
            // what a republish or a hand reset of a finished task looks like to the worker
            tables.update("UPDATE onebeat_task SET status = 'pending' WHERE idempotency_key = ?", "redelivered/1");
            await().atMost(Duration.ofSeconds(20)).until(() -> metrics.duplicates.get() == 1);
        }
        assertThat(tables.status("redelivered/1")).isEqualTo("done");
        assertThat(tables.effects("redelivered/1")).isEqualTo(1);
        assertThat(metrics.processed).hasValue(1);
    }

    @Test
    void failingTaskOfAGroupIsRetriedAloneWhileTheOthersCommitOnce() {
        for (int i = 1; i <= 5; i++) {
            tables.insertTask("group/" + i, "send_reminder", "group");
        }
        try (TaskQueueWorker worker = worker("group").concurrency(1).batchSize(5).tasksPerTransaction(5)
                .handler("send_reminder", (task, tx) -> {
                    QueueTables.applyEffect(tx, task, "w");
                    if (task.idempotencyKey().equals("group/3")) {
                        throw new IllegalStateException("smtp timeout");
                    }
                }).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> tables.tasksIn("group", "done") == 4 && metrics.retried.get() >= 1);
        }
        for (int i : new int[] {1, 2, 4, 5}) {
            assertThat(tables.effects("group/" + i)).as("effects of group/%d", i).isEqualTo(1);
            assertThat(tables.attempts("group/" + i)).isEqualTo(1);
        }
        assertThat(tables.effects("group/3")).isZero();
        assertThat(tables.status("group/3")).isIn("pending", "claimed");
    }

    @Test
    void withoutTheJournalARedeliveredProcessedTaskIsAppliedAgain() {
        tables.insertTask("unjournaled/1", "send_reminder", "unjournaled");
        try (TaskQueueWorker worker = worker("unjournaled").journal(false)
                .handler("send_reminder", (task, tx) -> QueueTables.applyEffect(tx, task, "w")).build()) {
            worker.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> "done".equals(tables.status("unjournaled/1")));
            tables.update("UPDATE onebeat_task SET status = 'pending' WHERE idempotency_key = ?", "unjournaled/1");
            await().atMost(Duration.ofSeconds(20)).until(() -> tables.effects("unjournaled/1") == 2);
        }
        assertThat(metrics.duplicates).hasValue(0);
    }

    @Test
    void closeLetsTheRunningTaskFinishAndReleasesUnstartedOnes() throws Exception {
        for (int i = 1; i <= 5; i++) {
            tables.insertTask("closing/" + i, "send_reminder", "closing");
        }
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        TaskQueueWorker worker = worker("closing").concurrency(1).batchSize(5).handler("send_reminder", (task, tx) -> {
            running.countDown();
            proceed.await();
            QueueTables.applyEffect(tx, task, "w");
        }).build();
        worker.start();
        assertThat(running.await(20, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(20)).until(() -> tables.tasksIn("closing", "claimed") == 5);

        CompletableFuture<Void> closing = CompletableFuture.runAsync(worker::close);
        await().atMost(Duration.ofSeconds(20)).until(() -> tables.tasksIn("closing", "pending") == 4);
        assertThat(closing).isNotDone();
        proceed.countDown();
        closing.get(20, TimeUnit.SECONDS);

        assertThat(tables.tasksIn("closing", "done")).isEqualTo(1);
        assertThat(tables.queryLong("SELECT count(*) FROM onebeat_task WHERE queue = 'closing' AND status = 'pending'"
                + " AND locked_by IS NULL AND attempts = 0")).isEqualTo(4);
    }
}
