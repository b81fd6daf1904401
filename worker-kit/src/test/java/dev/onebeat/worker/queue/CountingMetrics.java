package dev.onebeat.worker.queue;

import dev.onebeat.worker.metrics.WorkerMetrics;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts what a worker reports, for assertions. */
final class CountingMetrics implements WorkerMetrics {

    final AtomicInteger processed = new AtomicInteger();
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger retried = new AtomicInteger();
    final AtomicInteger dead = new AtomicInteger();

    @Override
    public void processed(String consumer, String task) {
        processed.incrementAndGet();
    }

    @Override
    public void duplicate(String consumer, String task) {
        duplicates.incrementAndGet();
    }

    @Override
    public void retried(String consumer, String task) {
        retried.incrementAndGet();
    }

    @Override
    public void dead(String consumer, String task) {
        dead.incrementAndGet();
    }
}
