package dev.onebeat.worker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * {@link WorkerMetrics} on Micrometer: {@code onebeat_worker_processed_total},
 * {@code onebeat_worker_duplicates_total}, {@code onebeat_worker_retried_total},
 * {@code onebeat_worker_dead_total} (tags {@code consumer}, {@code task}) and
 * {@code onebeat_worker_throttled_total} (tag {@code kind}).
 */
public final class MicrometerWorkerMetrics implements WorkerMetrics {

    private final MeterRegistry registry;

    public MicrometerWorkerMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry must not be null");
    }

    @Override
    public void processed(String consumer, String task) {
        count("onebeat.worker.processed", consumer, task);
    }

    @Override
    public void duplicate(String consumer, String task) {
        count("onebeat.worker.duplicates", consumer, task);
    }

    @Override
    public void retried(String consumer, String task) {
        count("onebeat.worker.retried", consumer, task);
    }

    @Override
    public void dead(String consumer, String task) {
        count("onebeat.worker.dead", consumer, task);
    }

    @Override
    public void throttled(String kind) {
        Counter.builder("onebeat.worker.throttled").tag("kind", kind).register(registry).increment();
    }

    private void count(String name, String consumer, String task) {
        Counter.builder(name).tag("consumer", consumer).tag("task", task == null ? "" : task)
                .register(registry).increment();
    }
}
