package dev.onebeat.worker.effect;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter: attempt n waits between half and all of {@code base * 2^(n-1)},
 * capped at {@code max}, so senders that failed together do not retry together.
 */
record Backoff(Duration base, Duration max) {

    Backoff {
        if (base == null || base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("backoff base must be positive, was " + base);
        }
        if (max == null || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff max must be at least the base " + base + ", was " + max);
        }
    }

    /** @param attempt the attempt that just failed, from 1 */
    Duration delay(int attempt, RandomGenerator random) {
        long ceiling = ceilingMillis(attempt);
        long half = ceiling / 2;
        return Duration.ofMillis(half + random.nextLong(ceiling - half + 1));
    }

    private long ceilingMillis(int attempt) {
        long baseMillis = Math.max(1, base.toMillis());
        int doublings = Math.min(Math.max(attempt - 1, 0), 40);
        long exponential = baseMillis > (Long.MAX_VALUE >> doublings) ? Long.MAX_VALUE : baseMillis << doublings;
        return Math.min(exponential, max.toMillis());
    }
}
