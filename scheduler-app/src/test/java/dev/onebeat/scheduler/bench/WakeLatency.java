package dev.onebeat.scheduler.bench;

import dev.onebeat.scheduler.engine.relay.QueueRoutes;
import dev.onebeat.scheduler.engine.relay.Relay;
import dev.onebeat.scheduler.engine.relay.RelayDriver;
import dev.onebeat.scheduler.engine.relay.RelayProperties;
import dev.onebeat.transport.celery.CeleryTransportProvider;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The wake-up latency of an idle relay: from the commit of a task's row to the message's delivery to
 * a consumer of the queue. A whole {@link Relay} runs with its thread, polling every second; each
 * sample commits one row on a connection of its own and then calls {@link Relay#wake()}, which is
 * what the relay's {@code FireListener} does once a fire with tasks has committed. Samples without
 * the wake show the poll interval the wake saves.
 */
final class WakeLatency {

    private static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    private static final int WARMUPS = 5;

    private static final String INSERT = """
            INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, entity_type, entity_id, payload)
            VALUES (?, ?, now(), ?, ?, 'order', ?, '{"args": [1, "EUR"], "kwargs": {"customer_id": 100001}}')
            """;

    private final RelayOutbox outbox;
    private final BenchQueue queue;
    private final String amqpUrl;
    private int rows;

    WakeLatency(RelayOutbox outbox, BenchQueue queue, String amqpUrl) {
        this.outbox = outbox;
        this.queue = queue;
        this.amqpUrl = amqpUrl;
    }

    /**
     * @return the latencies of {@code samples} woken commits and then of {@code unwoken} commits left to
     *     the poll, in milliseconds, each list in the order measured
     */
    List<List<Double>> measure(int samples, int unwoken) throws Exception {
        outbox.refill(0);
        queue.purge();
        BlockingQueue<Long> arrivals = queue.arrivals();
        RelayProperties properties = RelayNodes.properties(queue.name(), amqpUrl, 500, POLL_INTERVAL);
        QueueRoutes routes = QueueRoutes.of(properties, List.of(new CeleryTransportProvider()), Map.of());
        Relay relay = RelayDriver.relay(routes, outbox.pool(), "relay-bench-latency", properties);
        relay.start();
        try (Connection connection = outbox.pool().getConnection();
             PreparedStatement insert = connection.prepareStatement(INSERT)) {
            connection.setAutoCommit(true);
            for (int i = 0; i < WARMUPS; i++) {
                sample(insert, relay, arrivals, true);
            }
            List<Double> woken = new ArrayList<>();
            for (int i = 0; i < samples; i++) {
                woken.add(sample(insert, relay, arrivals, true));
            }
            List<Double> polled = new ArrayList<>();
            for (int i = 0; i < unwoken; i++) {
                polled.add(sample(insert, relay, arrivals, false));
            }
            return List.of(woken, polled);
        } finally {
            relay.stop();
        }
    }

    /** Leaves the relay idle for a while, commits one row, wakes the relay or not, and waits for the message. */
    private double sample(PreparedStatement insert, Relay relay, BlockingQueue<Long> arrivals, boolean wake)
            throws Exception {
        BenchDatabase.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextLong(100, 300)));
        int row = rows++;
        insert.setString(1, RelayOutbox.JOB + "/latency/" + row);
        insert.setString(2, RelayOutbox.JOB);
        insert.setString(3, RelayOutbox.TASK);
        insert.setString(4, queue.name());
        insert.setString(5, String.valueOf(row));
        insert.executeUpdate();
        long committed = System.nanoTime();
        if (wake) {
            relay.wake();
        }
        Long arrived = arrivals.poll(POLL_INTERVAL.toMillis() * 10, TimeUnit.MILLISECONDS);
        if (arrived == null) {
            throw new IllegalStateException("row " + row + " did not reach the queue within " + POLL_INTERVAL.multipliedBy(10));
        }
        return (arrived - committed) / 1e6;
    }

    /** @return {@code median m ms, p99 p ms, max x ms} of {@code millis} */
    static String describe(List<Double> millis) {
        List<Double> sorted = millis.stream().sorted().toList();
        double p99 = sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1);
        return String.format(Locale.ROOT, "median %.1f ms, p99 %.1f ms, max %.1f ms (%d samples)",
                Rates.median(millis), p99, sorted.get(sorted.size() - 1), sorted.size());
    }
}
