package dev.onebeat.worker;

import dev.onebeat.worker.metrics.WorkerMetrics;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts what the kit reports, for assertions in every package's tests. */
public final class CountingMetrics implements WorkerMetrics {

    public final AtomicInteger processed = new AtomicInteger();
    public final AtomicInteger duplicates = new AtomicInteger();
    public final AtomicInteger retried = new AtomicInteger();
    public final AtomicInteger dead = new AtomicInteger();

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
