package dev.onebeat.worker.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import dev.onebeat.testsupport.jvm.JavaLauncher;
import dev.onebeat.testsupport.jvm.JavaProcess;
import dev.onebeat.worker.WorkerSchema;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A worker process killed with SIGKILL at the worst moments; a survivor in this JVM takes over. */
@ExtendWith(PostgresExtension.class)
class TaskQueueCrashIT {

    private static final Duration LEASE = Duration.ofSeconds(2);

    private static TestDatabase database;
    private static HikariDataSource dataSource;
    private static QueueTables tables;

    private JavaProcess child;

    @BeforeAll
    static void migrate(TestDatabase testDatabase) {
        database = testDatabase;
        dataSource = WorkerSchema.migrated(testDatabase);
        tables = new QueueTables(dataSource);
    }

    @AfterAll
    static void closeDataSource() {
        dataSource.close();
    }

    @AfterEach
    void killChild() {
        if (child != null) {
            child.close();
        }
    }

    @Test
    void workerKilledMidHandlerLeavesTheTaskToAnotherWorkerAfterItsLease() throws Exception {
        tables.insertTask("mid/1", "apply", "mid");
        child = startChild("mid", "in-handler");
        await().atMost(Duration.ofSeconds(60)).until(() -> tables.signalled("mid/1", "in-handler"));
        kill();

        try (TaskQueueWorker survivor = survivor("mid")) {
            survivor.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> "done".equals(tables.status("mid/1")));
        }
        assertThat(tables.effects("mid/1")).isEqualTo(1);
        assertThat(tables.queryLong("SELECT count(*) FROM test_effect WHERE task_key = 'mid/1' AND worker = 'survivor'"))
                .isEqualTo(1);
        assertThat(tables.attempts("mid/1")).isEqualTo(2);
    }

    @Test
    void workerKilledRightAfterCommitLeavesTheTaskDoneAndNotAppliedAgain() throws Exception {
        tables.insertTask("committed/1", "apply", "committed");
        child = startChild("committed", "after-commit");
        await().atMost(Duration.ofSeconds(60)).until(() -> tables.signalled("committed/1", "committed"));
        kill();
        assertThat(tables.status("committed/1")).isEqualTo("done");

        try (TaskQueueWorker survivor = survivor("committed")) {
            survivor.start();
            // one task at a time, oldest first: the second is done only after the first was skipped or re-run
            tables.insertTask("committed/2", "apply", "committed");
            await().atMost(Duration.ofSeconds(30)).until(() -> "done".equals(tables.status("committed/2")));
        }
        assertThat(tables.effects("committed/1")).isEqualTo(1);
        assertThat(tables.attempts("committed/1")).isEqualTo(1);
    }

    private static TaskQueueWorker survivor(String queue) {
        return TaskQueueWorker.builder(dataSource)
                .consumer(QueueWorkerMain.CONSUMER)
                .queues(queue)
                .lease(LEASE)
                .concurrency(1)
                .batchSize(1)
                .pollInterval(Duration.ofMillis(100))
                .handler("apply", (task, tx) -> QueueTables.applyEffect(tx, task, "survivor"))
                .build();
    }

    private JavaProcess startChild(String queue, String stop) {
        return JavaLauncher.mainClass("queue-worker-" + queue, QueueWorkerMain.class)
                .jvmOptions("-Xmx128m")
                .systemProperty(QueueWorkerMain.STOP_PROPERTY, stop)
                .arguments(database.jdbcUrlWithCredentials(), queue, Long.toString(LEASE.toMillis()))
                .log(Path.of("target", "queue-crash", queue + ".log"))
                .start();
    }

    /** SIGKILL: no shutdown hook, no rollback from the client, only the socket closing. */
    private void kill() {
        // the launcher's kill waits for the JVM to be gone, and fails if it is not within 10 s
        child.kill();
        assertThat(child.isAlive()).isFalse();
    }
}
