package dev.onebeat.scheduler.engine.relay;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long the relay waits after failures: a loop whose whole round failed waits the ceiling before
 * its next round, and a row to retry becomes due again after a random delay below it, so rows that
 * failed together do not come back together.
 *
 * @param initial the ceiling after one failure
 * @param max the ceiling it doubles up to
 */
record RelayBackoff(Duration initial, Duration max) {

    static RelayBackoff of(RelaySettings settings) {
        return new RelayBackoff(settings.retryInitial(), settings.retryMax());
    }

    /** The longest wait after {@code attempt} consecutive failures: doubling from initial up to max. */
    Duration ceiling(int attempt) {
        long doublings = Math.min(Math.max(attempt - 1, 0), 30);
        return Duration.ofMillis(Math.min(max.toMillis(), initial.toMillis() << doublings));
    }

    /** Half the ceiling plus a random half: spread out, but never a hot retry. */
    Duration retryDelay(int attempt) {
        long ceiling = Math.max(2, ceiling(attempt).toMillis());
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }
}
