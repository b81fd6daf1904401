package dev.onebeat.worker.queue;

import dev.onebeat.worker.Backoff;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/** A validated {@link TaskQueueWorker} configuration; messages name the builder method. */
record WorkerSettings(DataSource dataSource, String consumer, List<String> queues,
                      Map<String, TaskHandler> handlers, int concurrency, int batchSize, Duration lease,
                      int maxAttempts, Backoff backoff, Duration pollInterval, Duration shutdownTimeout,
                      WorkerMetrics metrics, boolean heartbeat, boolean journal, int tasksPerTransaction) {

    static final int DEFAULT_CONCURRENCY = 4;
    static final int DEFAULT_BATCH_SIZE = 10;
    static final int DEFAULT_TASKS_PER_TRANSACTION = 1;
    static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
    static final int DEFAULT_MAX_ATTEMPTS = 10;
    static final Backoff DEFAULT_BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(10));
    static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(500);
    static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    /** The heartbeat runs every lease/3; below this it would hammer the database. */
    static final Duration MIN_LEASE = Duration.ofMillis(300);

    WorkerSettings {
        Objects.requireNonNull(dataSource, "dataSource must not be null");
        Objects.requireNonNull(consumer, "consumer must not be null");
        if (consumer.isBlank() || consumer.length() > 150) {
            throw new IllegalArgumentException("consumer must be 1 to 150 non-blank characters, was '" + consumer + "'");
        }
        if (queues.isEmpty()) {
            throw new IllegalArgumentException("queues must name at least one queue");
        }
        for (int i = 0; i < queues.size(); i++) {
            if (queues.get(i) == null || queues.get(i).isBlank()) {
                throw new IllegalArgumentException("queues[" + i + "] must not be blank, was '" + queues.get(i) + "'");
            }
        }
        if (handlers.isEmpty()) {
            throw new IllegalArgumentException("handlers must register at least one task handler");
        }
        atLeastOne("concurrency", concurrency);
        atLeastOne("batchSize", batchSize);
        atLeastOne("maxAttempts", maxAttempts);
        Objects.requireNonNull(lease, "lease must not be null");
        if (lease.compareTo(MIN_LEASE) < 0) {
            throw new IllegalArgumentException("lease must be at least " + MIN_LEASE + ", was " + lease);
        }
        Objects.requireNonNull(backoff, "backoff must not be null");
        positive("pollInterval", pollInterval);
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout must not be null");
        if (shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("shutdownTimeout must not be negative, was " + shutdownTimeout);
        }
        Objects.requireNonNull(metrics, "metrics must not be null");
        queues = List.copyOf(queues);
        handlers = Map.copyOf(handlers);
        if (tasksPerTransaction < 1 || tasksPerTransaction > batchSize) {
            throw new IllegalArgumentException("tasksPerTransaction must be between 1 and batchSize " + batchSize
                    + ", was " + tasksPerTransaction);
        }
    }

    private static void atLeastOne(String field, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, was " + value);
        }
    }

    private static void positive(String field, Duration value) {
        Objects.requireNonNull(value, field + " must not be null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
    }
}
