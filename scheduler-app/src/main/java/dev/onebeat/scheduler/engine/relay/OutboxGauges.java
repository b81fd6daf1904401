package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.scheduler.engine.outbox.TaskTable;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@code onebeat_outbox_pending{queue}} (tasks not yet published or, for the in-database queue, not
 * yet taken), {@code onebeat_outbox_oldest_pending_age_seconds{queue}} (how long the oldest due one
 * has waited) and {@code onebeat_relay_claimed_overdue{queue}} (tasks still claimed after their lease ran
 * out: an in-database queue worker, or the relay of an earlier release, died or hung; another takes them
 * over on its next round, so a count that stays up means nothing is taking them; today's relay holds its
 * claims by a transaction, which the server ends instead), read from the
 * table at most once per refresh interval: scraping never hits the table harder than that. A queue's gauges appear with its first pending task: reading
 * {@code onebeat_outbox_queues} (queues with pending tasks), registered from the start, refreshes
 * them, so a scrape finds queues that had nothing pending before. The statements are {@link TaskTable}'s.
 */
final class OutboxGauges {

    private static final Logger log = LoggerFactory.getLogger(OutboxGauges.class);

    private final TaskTable tasks;
    private final MeterRegistry registry;
    private final long refreshNanos;
    private final Map<String, AtomicLong[]> byQueue = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> overdueByQueue = new ConcurrentHashMap<>();
    private volatile long refreshedAt = System.nanoTime() - Long.MAX_VALUE / 2;

    OutboxGauges(JdbcTemplate jdbc, MeterRegistry registry, Duration refresh) {
        this.tasks = new TaskTable(JdbcClient.create(jdbc));
        this.registry = registry;
        this.refreshNanos = refresh.toNanos();
        // without a meter that exists from the start, nothing would read, hence refresh, when no queue has one yet
        Gauge.builder("onebeat.outbox.queues", this, gauges -> gauges.pendingQueues())
                .description("Queues with pending tasks").register(registry);
    }

    /** Reads the table now; gauges of queues with nothing pending go to zero. */
    synchronized void refresh() {
        Map<String, long[]> seen = new ConcurrentHashMap<>();
        for (TaskTable.Pending pending : tasks.pendingByQueue()) {
            seen.put(pending.queue(), new long[] {pending.count(), pending.oldestAgeMillis()});
        }
        seen.keySet().forEach(this::register);
        byQueue.forEach((queue, values) -> {
            long[] current = seen.getOrDefault(queue, new long[] {0, 0});
            values[0].set(current[0]);
            values[1].set(current[1]);
        });
        Map<String, Long> overdue = tasks.claimedOverdueByQueue();
        overdue.keySet().forEach(queue -> overdueByQueue.computeIfAbsent(queue, q -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder("onebeat.relay.claimed.overdue", value, v -> read(v))
                    .description("Tasks still claimed after their claim lease ran out").tags(Tags.of("queue", q))
                    .register(registry);
            return value;
        }));
        overdueByQueue.forEach((queue, value) -> value.set(overdue.getOrDefault(queue, 0L)));
        refreshedAt = System.nanoTime();
    }

    private void register(String queue) {
        byQueue.computeIfAbsent(queue, q -> {
            AtomicLong[] values = {new AtomicLong(), new AtomicLong()};
            Gauge.builder("onebeat.outbox.pending", values[0], v -> read(v))
                    .description("Tasks waiting to be published or taken").tags(Tags.of("queue", q)).register(registry);
            Gauge.builder("onebeat.outbox.oldest.pending.age", values[1], v -> read(v) / 1000.0)
                    .description("Seconds the oldest due pending task has waited").baseUnit("seconds")
                    .tags(Tags.of("queue", q)).register(registry);
            return values;
        });
    }

    /** @return claims past their lease by queue, those with none left out; refreshed if stale */
    Map<String, Long> claimedOverdue() {
        refreshIfStale();
        Map<String, Long> overdue = new TreeMap<>();
        overdueByQueue.forEach((queue, value) -> {
            if (value.get() > 0) {
                overdue.put(queue, value.get());
            }
        });
        return overdue;
    }

    private double pendingQueues() {
        refreshIfStale();
        return byQueue.values().stream().filter(values -> values[0].get() > 0).count();
    }

    private double read(AtomicLong value) {
        refreshIfStale();
        return value.get();
    }

    private void refreshIfStale() {
        if (System.nanoTime() - refreshedAt > refreshNanos) {
            try {
                refresh();
            } catch (RuntimeException e) {
                log.debug("outbox gauges not refreshed: {}", e.toString());
            }
        }
    }
}
