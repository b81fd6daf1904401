package dev.onebeat.worker.journal;

import dev.onebeat.worker.metrics.WorkerMetrics;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts processed and duplicate deliveries, for assertions. */
final class CountingMetrics implements WorkerMetrics {

    final AtomicInteger processed = new AtomicInteger();
    final AtomicInteger duplicates = new AtomicInteger();

    @Override
    public void processed(String consumer, String task) {
        processed.incrementAndGet();
    }

    @Override
    public void duplicate(String consumer, String task) {
        duplicates.incrementAndGet();
    }
}
