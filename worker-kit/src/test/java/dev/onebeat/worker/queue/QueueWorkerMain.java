package dev.onebeat.worker.queue;

import com.zaxxer.hikari.HikariDataSource;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * A worker process for crash tests: runs one {@link TaskQueueWorker} whose {@code apply} handler
 * writes the test effect, then stops where {@value #STOP_PROPERTY} says and waits there to be
 * killed, after writing a {@code test_signal} row so the test knows when.
 *
 * <ul>
 *   <li>{@code in-handler}: inside the handler, effect written but not committed (signal
 *       {@code in-handler});</li>
 *   <li>{@code after-commit}: right after the task's transaction committed, before the worker does
 *       anything else (signal {@code committed}).</li>
 * </ul>
 *
 * <p>Arguments: a JDBC URL with credentials, the queue, the lease in milliseconds.
 */
public final class QueueWorkerMain {

    static final String STOP_PROPERTY = "onebeat.test.stop";
    static final String CONSUMER = "crash";

    private static final ThreadLocal<String> currentKey = new ThreadLocal<>();

    private QueueWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        String stop = System.getProperty(STOP_PROPERTY, "never");
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(args[0]);
        dataSource.setMaximumPoolSize(6);
        TaskQueueWorker worker = TaskQueueWorker.builder(dataSource)
                .consumer(CONSUMER)
                .queues(args[1])
                .lease(Duration.ofMillis(Long.parseLong(args[2])))
                .concurrency(1)
                .pollInterval(Duration.ofMillis(100))
                .metrics(new WorkerMetrics() {
                    @Override
                    public void processed(String consumer, String task) {
                        if (stop.equals("after-commit")) {
                            signalAndHang(dataSource, currentKey.get(), "committed");
                        }
                    }
                })
                .handler("apply", (task, tx) -> {
                    currentKey.set(task.idempotencyKey());
                    QueueTables.applyEffect(tx, task, "child");
                    if (stop.equals("in-handler")) {
                        signalAndHang(dataSource, task.idempotencyKey(), "in-handler");
                    }
                })
                .build();
        worker.start();
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void signalAndHang(DataSource dataSource, String key, String stage) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO test_signal (task_key, stage) VALUES (?, ?)")) {
            insert.setString(1, key);
            insert.setString(2, stage);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("could not signal " + stage, e);
        }
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
