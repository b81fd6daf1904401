package dev.onebeat.scheduler.engine.relay;

import dev.onebeat.transport.QueueRoute;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Relay counters, tagged {@code transport} and {@code queue}: {@code onebeat_relay_published_total}
 * (every confirmed publish), {@code onebeat_relay_republished_total} (tasks that go out more than once:
 * counted by the relay whose claim was lost after the broker confirmed them, before its mark, and by the relay
 * that takes over a claim an earlier release left past its lease), {@code onebeat_relay_retried_total} (publishes
 * put off by a passing failure), {@code onebeat_relay_failed_total} (rows the broker refused) and
 * {@code onebeat_relay_expired_total} (tasks published after their {@code expires}, which the worker revokes).
 */
class RelayMetrics {

    private final MeterRegistry registry;

    RelayMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts a round's confirmed publishes of one route at once: a registry lookup per round, not per task. */
    void published(QueueRoute route, int count, int reclaimed) {
        counter("onebeat.relay.published", "Tasks published and confirmed by the broker", route).increment(count);
        if (reclaimed > 0) {
            republished(route, reclaimed);
        }
    }

    void republished(QueueRoute route, int count) {
        counter("onebeat.relay.republished", "Tasks published more than once: confirmed, but their claim was lost "
                + "before the mark", route).increment(count);
    }

    void retried(QueueRoute route, int count) {
        counter("onebeat.relay.retried", "Publishes put off after a passing failure", route).increment(count);
    }

    void expired(QueueRoute route) {
        counter("onebeat.relay.expired", "Tasks published after their expiry, which the worker discards", route).increment();
    }

    void failed(QueueRoute route) {
        counter("onebeat.relay.failed", "Tasks the broker refused for good, marked failed", route).increment();
    }

    private Counter counter(String name, String description, QueueRoute route) {
        return Counter.builder(name).description(description).tag("transport", route.transport())
                .tag("queue", route.queue()).register(registry);
    }
}
