package dev.onebeat.worker.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.worker.WorkerSchema;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Two live workers on one queue: each task's effect is applied once, however they interleave. */
@ExtendWith(PostgresExtension.class)
class TaskQueueRaceIT {

    private static final Logger log = LoggerFactory.getLogger(TaskQueueRaceIT.class);

    private static HikariDataSource dataSource;
    private static QueueTables tables;

    @BeforeAll
    static void migrate(TestDatabase database) {
        dataSource = WorkerSchema.migrated(database);
        tables = new QueueTables(dataSource);
    }

    @AfterAll
    static void closeDataSource() {
        dataSource.close();
    }

    private static TaskQueueWorkerBuilder worker(String queue, String name, TaskHandler handler) {
        return TaskQueueWorker.builder(dataSource)
                .consumer("race")
                .queues(queue)
                .pollInterval(Duration.ofMillis(50))
                .backoff(Duration.ofMillis(10), Duration.ofMillis(50))
                .handler("apply", handler);
    }

    private static TaskHandler applying(String worker) {
        return (task, tx) -> QueueTables.applyEffect(tx, task, worker);
    }

    @Test
    void twoWorkersOfFourThreadsApplyEachOf500TasksOnce() {
        raceOver500Tasks("many", 1);
    }

    @Test
    void twoWorkersRunningTenTasksPerTransactionApplyEachOf500TasksOnce() {
        raceOver500Tasks("grouped", 10);
    }

    private void raceOver500Tasks(String queue, int tasksPerTransaction) {
        tables.update("""
                INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload)
                SELECT '%1$s/' || n, 'test-job', now(), 'apply', '%1$s', '{"args":[],"kwargs":{}}'::jsonb
                  FROM generate_series(1, 500) n
                """.formatted(queue));
        long started = System.nanoTime();
        try (TaskQueueWorker first = worker(queue, "a", applying("a")).concurrency(4).batchSize(10)
                     .tasksPerTransaction(tasksPerTransaction).build();
             TaskQueueWorker second = worker(queue, "b", applying("b")).concurrency(4).batchSize(10)
                     .tasksPerTransaction(tasksPerTransaction).build()) {
            first.start();
            second.start();
            await().atMost(Duration.ofSeconds(120)).until(() -> tables.tasksIn(queue, "done") == 500);
        }
        long millis = Math.max(1, (System.nanoTime() - started) / 1_000_000);
        log.info("500 tasks by 2 workers x 4 threads, {} per transaction, in {} ms, about {} tasks/s",
                tasksPerTransaction, millis, 500_000 / millis);

        String keys = "task_key LIKE '" + queue + "/%'";
        assertThat(tables.queryLong("SELECT count(DISTINCT task_key) FROM test_effect WHERE " + keys)).isEqualTo(500);
        assertThat(tables.queryLong("""
                SELECT coalesce(max(applied), 0) FROM (
                    SELECT count(*) AS applied FROM test_effect WHERE %s GROUP BY task_key) per_key
                """.formatted(keys))).isEqualTo(1);
        assertThat(tables.queryLong("SELECT count(DISTINCT worker) FROM test_effect WHERE " + keys)).isEqualTo(2);
    }

    @Test
    void liveWorkersHeartbeatKeepsItsLongTaskFromASecondWorker() {
        tables.insertTask("long/1", "apply", "long");
        TaskHandler slow = (task, tx) -> {
            QueueTables.applyEffect(tx, task, "slow");
            Thread.sleep(3_000);
        };
        try (TaskQueueWorker first = worker("long", "a", slow).lease(Duration.ofSeconds(1)).build()) {
            first.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> first.workerId().equals(tables.lockedBy("long/1")));
            try (TaskQueueWorker second = worker("long", "b", applying("second")).lease(Duration.ofSeconds(1)).build()) {
                second.start();
                await().atMost(Duration.ofSeconds(20)).until(() -> "done".equals(tables.status("long/1")));
            }
        }
        assertThat(tables.attempts("long/1")).isEqualTo(1);
        assertThat(tables.effects("long/1")).isEqualTo(1);
    }

    @Test
    void workerThatOutlivedItsLeaseRollsBackItsLateCommit() {
        tables.insertTask("stalled/1", "apply", "stalled");
        TaskHandler slowFirstAttempt = (task, tx) -> {
            QueueTables.applyEffect(tx, task, "stalled");
            if (task.attempt() == 1) {
                Thread.sleep(3_000);
            }
        };
        try (TaskQueueWorker stalled = worker("stalled", "a", slowFirstAttempt).lease(Duration.ofSeconds(1))
                .heartbeat(false).build()) {
            stalled.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> stalled.workerId().equals(tables.lockedBy("stalled/1")));
            try (TaskQueueWorker second = worker("stalled", "b", slowFirstAttempt).lease(Duration.ofSeconds(1)).build()) {
                second.start();
                await().atMost(Duration.ofSeconds(30)).until(() -> "done".equals(tables.status("stalled/1")));
            }
        }
        assertThat(tables.effects("stalled/1")).isEqualTo(1);
        assertThat(tables.effectAttempt("stalled/1")).isGreaterThan(1);
    }
}
