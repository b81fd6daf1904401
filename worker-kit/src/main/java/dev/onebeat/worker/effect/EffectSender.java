package dev.onebeat.worker.effect;

import dev.onebeat.worker.Backoff;
import dev.onebeat.worker.metrics.WorkerMetrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers committed effects from {@code onebeat_effect}, any number of senders on one database.
 *
 * <p>Each round claims a batch of due effects under a lease ({@code FOR UPDATE SKIP LOCKED}, so
 * senders never share one), delivers them one by one and marks each sent only after its delivery
 * returned. A failed delivery is retried after an exponential backoff with jitter, and set aside as
 * dead with its last error once its attempts are used up, or at once on a
 * {@link PermanentDeliveryException}. A sender that dies mid-delivery leaves its effects claimed
 * until their lease runs out; another sender then delivers them again with the same key. The lease
 * must therefore be longer than one delivery can take (for HTTP, its timeout).
 */
public final class EffectSender implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EffectSender.class);

    private final BatchSender batch;
    private final int batchSize;
    private final Duration pollInterval;
    private final Duration lease;
    private final String senderId;
    private final Object wakeUp = new Object();
    private volatile boolean running;
    private Thread thread;

    private EffectSender(Builder builder, String senderId) {
        EffectStore store = new EffectStore(builder.dataSource, senderId, builder.lease);
        this.batch = new BatchSender(store, builder.deliveries, builder.batchSize, builder.maxAttempts,
                new Backoff(builder.backoffBase, builder.backoffMax), builder.metrics, builder.name);
        this.batchSize = builder.batchSize;
        this.pollInterval = builder.pollInterval;
        this.lease = builder.lease;
        this.senderId = senderId;
    }

    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /**
     * Claims one batch of due effects and delivers it, on the calling thread.
     *
     * @return how many effects were claimed; fewer than the batch size means none are left due
     */
    public int sendDue() {
        return batch.sendDue(() -> true);
    }

    /** Starts sending on a thread of its own, polling while nothing is due. */
    public synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("sender " + senderId + " was already started");
        }
        running = true;
        thread = new Thread(this::run, "onebeat-effect-sender-" + senderId);
        thread.setDaemon(true);
        thread.start();
        log.info("Effect sender started, sender={} batchSize={} lease={}", senderId, batchSize, lease);
    }

    /**
     * Finishes the delivery in progress, hands the rest of the claimed batch back without spending
     * an attempt, and stops. Waits at most one lease, then interrupts the delivery; an interrupt of
     * the caller ends the wait early and is kept.
     */
    @Override
    public synchronized void close() {
        if (thread == null || !running) {
            return;
        }
        running = false;
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
        try {
            thread.join(lease.toMillis());
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(lease.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.info("Effect sender stopped, sender={}", senderId);
    }

    private void run() {
        while (running) {
            int claimed;
            try {
                claimed = batch.sendDue(() -> running);
            } catch (RuntimeException e) {
                log.warn("Effect sending round failed, sender={} error={}", senderId, e.toString());
                claimed = 0;
            }
            if (claimed < batchSize) {
                pause();
            }
        }
    }

    private void pause() {
        synchronized (wakeUp) {
            if (!running) {
                return;
            }
            try {
                wakeUp.wait(Math.max(1, pollInterval.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
    }

    /** Settings of a sender; {@link #build()} checks them. Defaults suit e-mail and push volumes. */
    public static final class Builder {

        private final DataSource dataSource;
        private final Map<String, EffectDelivery> deliveries = new LinkedHashMap<>();
        private int batchSize = 20;
        private Duration lease = Duration.ofMinutes(1);
        private int maxAttempts = 10;
        private Duration backoffBase = Duration.ofSeconds(1);
        private Duration backoffMax = Duration.ofMinutes(10);
        private WorkerMetrics metrics = WorkerMetrics.NOOP;
        private Duration pollInterval = Duration.ofSeconds(1);
        private String name = "effect-sender";
        private String senderId;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource must not be null");
        }

        /** Delivers the effects of {@code channel}; a sender claims only the channels it has a delivery for. */
        public Builder delivery(String channel, EffectDelivery delivery) {
            if (channel == null || channel.isBlank()) {
                throw new IllegalArgumentException("channel must not be blank, was " + channel);
            }
            deliveries.put(channel, Objects.requireNonNull(delivery, "delivery of " + channel + " must not be null"));
            return this;
        }

        /** Effects claimed per round, 20 by default. */
        public Builder batchSize(int batchSize) {
            this.batchSize = batchSize;
            return this;
        }

        /** How long a claimed effect stays with this sender, renewed before each delivery; 1 minute by default. */
        public Builder lease(Duration lease) {
            this.lease = lease;
            return this;
        }

        /** Deliveries tried before an effect is dead, 10 by default. */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        /** Wait after the first failure, doubled after each next one up to {@code max}; 1 s to 10 min by default. */
        public Builder backoff(Duration base, Duration max) {
            this.backoffBase = base;
            this.backoffMax = max;
            return this;
        }

        public Builder metrics(WorkerMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        /** Pause of the started sender when nothing is due, 1 s by default. */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
            return this;
        }

        /** The consumer name the metrics count under, {@code effect-sender} by default. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** Written to {@code locked_by}; unique per sender instance, generated by default. */
        public Builder senderId(String senderId) {
            this.senderId = senderId;
            return this;
        }

        public EffectSender build() {
            if (deliveries.isEmpty()) {
                throw new IllegalArgumentException("deliveries must name at least one channel");
            }
            requireRange("batchSize", batchSize, 1, 10_000);
            requireRange("maxAttempts", maxAttempts, 1, 1_000);
            requirePositive("lease", lease);
            requirePositive("pollInterval", pollInterval);
            new Backoff(backoffBase, backoffMax);
            Objects.requireNonNull(metrics, "metrics must not be null");
            requireText("name", name);
            // generated per build, so two senders built from one builder never share a lease
            String id = senderId != null ? senderId
                    : name + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
            requireText("senderId", id);
            return new EffectSender(this, id);
        }

        private static void requireRange(String field, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(field + " must be within " + min + ".." + max + ", was " + value);
            }
        }

        private static void requirePositive(String field, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(field + " must be positive, was " + value);
            }
        }

        private static void requireText(String field, String value) {
            if (value == null || value.isBlank() || value.length() > 200) {
                throw new IllegalArgumentException(field + " must be 1..200 characters, not blank, was " + value);
            }
        }
    }
}
