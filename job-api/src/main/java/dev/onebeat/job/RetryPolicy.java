package dev.onebeat.job;

import java.time.Duration;
import java.util.Objects;

/**
 * How often onebeat tries one instant of a job whose fire failed (the job threw, the database dropped
 * the connection, the job's lock stayed busy), and how long it waits between tries. Every attempt takes
 * the whole fire path for the same instant, so its tasks keep their keys and at most one attempt
 * commits. The wait before attempt {@code n} (from 2) is {@code backoff × 2^(n-2)}, at most
 * {@code maxBackoff}, each spread at random between half and the whole of it so that many jobs failing
 * together do not retry together. No attempt starts after the job's catch-up window has passed.
 *
 * @param attempts tries per instant, the first included: 1 (no retry) to {@value #MAX_ATTEMPTS}
 * @param backoff wait before the first retry, positive
 * @param maxBackoff the longest wait between two tries, at least {@code backoff}
 */
public record RetryPolicy(int attempts, Duration backoff, Duration maxBackoff) {

    /** The most attempts a policy may ask for. */
    public static final int MAX_ATTEMPTS = 100;

    /** Three attempts, 10 s then 20 s apart (each between half and the whole of it), at most 5 min. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofSeconds(10), Duration.ofMinutes(5));

    /** One attempt: a failed fire is not retried (it can still be re-run by hand). */
    public static final RetryPolicy NONE = new RetryPolicy(1, DEFAULT.backoff, DEFAULT.maxBackoff);

    public RetryPolicy {
        if (attempts < 1 || attempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempts must be 1 to " + MAX_ATTEMPTS + ", was " + attempts);
        }
        Objects.requireNonNull(backoff, "backoff must not be null");
        Objects.requireNonNull(maxBackoff, "maxBackoff must not be null");
        if (backoff.isNegative() || backoff.isZero()) {
            throw new IllegalArgumentException("backoff must be positive, was " + backoff);
        }
        if (maxBackoff.compareTo(backoff) < 0) {
            throw new IllegalArgumentException("maxBackoff must be at least backoff (" + backoff + "), was " + maxBackoff);
        }
    }

    /** @return this policy with {@code attempts} tries */
    public RetryPolicy withAttempts(int attempts) {
        return new RetryPolicy(attempts, backoff, maxBackoff);
    }

    /** @return this policy waiting {@code backoff} before the first retry, the longest wait raised to it if shorter */
    public RetryPolicy withBackoff(Duration backoff) {
        Objects.requireNonNull(backoff, "backoff must not be null");
        return new RetryPolicy(attempts, backoff, maxBackoff.compareTo(backoff) < 0 ? backoff : maxBackoff);
    }

    /**
     * @param attempt the attempt about to be scheduled, from 2
     * @param random a number in [0, 1), the jitter
     * @return how long after the failure of attempt {@code attempt - 1} it starts: between half and the whole of
     *         {@link #ceilingBefore}
     */
    public Duration delayBefore(int attempt, double random) {
        long millis = ceilingBefore(attempt).toMillis();
        return Duration.ofMillis(millis / 2 + (long) (random * (millis - millis / 2)));
    }

    /**
     * @param attempt an attempt after the first, from 2 (any number: it is not held against {@link #attempts()})
     * @return the longest wait before it: {@code backoff × 2^(attempt-2)}, at most {@code maxBackoff}
     */
    public Duration ceilingBefore(int attempt) {
        if (attempt < 2) {
            throw new IllegalArgumentException("the first attempt is not a retry, attempt was " + attempt);
        }
        int doublings = Math.min(attempt - 2, 62);
        long backoffMillis = backoff.toMillis();
        long maxMillis = maxBackoff.toMillis();
        if (backoffMillis > (maxMillis >> doublings)) {
            return maxBackoff;
        }
        return Duration.ofMillis(Math.min(maxMillis, backoffMillis << doublings));
    }
}
