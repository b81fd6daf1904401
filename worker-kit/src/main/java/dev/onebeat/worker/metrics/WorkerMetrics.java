package dev.onebeat.worker.metrics;

/**
 * What the kit counts. The duplicate count is the one to watch: a spike after a deploy or under
 * load means acknowledgements and timeouts let duplicates through, and the guard is doing its job at
 * its limit.
 */
public interface WorkerMetrics {

    /** Counts nothing. */
    WorkerMetrics NOOP = new WorkerMetrics() {
    };

    /** A task or message whose effect was applied and committed. */
    default void processed(String consumer, String task) {
    }

    /** A task or message skipped because its key was already processed by this consumer. */
    default void duplicate(String consumer, String task) {
    }

    /** A failed attempt that will be tried again. */
    default void retried(String consumer, String task) {
    }

    /** A task or effect that used up its attempts and was set aside as dead. */
    default void dead(String consumer, String task) {
    }

    /** A notification held back by a throttle window. */
    default void throttled(String kind) {
    }
}
