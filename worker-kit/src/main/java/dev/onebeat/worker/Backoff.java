package dev.onebeat.worker;

import dev.onebeat.job.RetryPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with full jitter: attempt n waits a uniform random time in
 * {@code [0, min(max, base * 2^(n-1))]}, so tasks that failed together do not retry together.
 * Shared by the queue worker and the effect sender.
 *
 * @param base the ceiling after the first failure
 * @param max the largest ceiling
 */
public record Backoff(Duration base, Duration max) {

    /** Checks that base is positive and max at least base. */
    public Backoff {
        Objects.requireNonNull(base, "backoff base must not be null");
        Objects.requireNonNull(max, "backoff max must not be null");
        if (base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("backoff base must be positive, was " + base);
        }
        if (max.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff max must be at least base " + base + ", was " + max);
        }
    }

    /**
     * @param attempt the attempt that just failed, from 1
     * @return the upper bound of the wait after it
     */
    public Duration ceiling(int attempt) {
        // the scheduler's retries double the same way; attempt n of a task is retry n + 1 of the policy (past 62
        // doublings every ceiling is max, so a huge attempt number is capped before the + 1 can overflow)
        return new RetryPolicy(1, base, max).ceilingBefore(Math.min(Math.max(attempt, 1), 1_000) + 1);
    }

    /**
     * @param attempt the attempt that just failed, from 1
     * @return a random wait in {@code [0, ceiling(attempt)]}
     */
    public Duration delay(int attempt) {
        return Duration.ofMillis(ThreadLocalRandom.current().nextLong(ceiling(attempt).toMillis() + 1));
    }
}
