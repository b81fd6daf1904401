package dev.onebeat.scheduler.engine.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One reading of the database's clock ({@code clock_timestamp()}) between two readings of this replica's.
 *
 * <p>The database read its clock at some moment of the round trip, unknown: {@link #skew()} takes the middle, the
 * best estimate; {@link #until} takes the end, so that a wait computed from it never ends before the database's clock
 * has reached the instant. The database's time later is told from the reading by the monotonic clock
 * ({@link System#nanoTime()}), not the replica's wall clock: a clock stepped between two readings (NTP, an operator)
 * leaves the waits right.
 *
 * @param sentAt this replica's time before the query
 * @param database the database's time in the query
 * @param receivedAt this replica's time after the answer
 * @param receivedNanos {@link System#nanoTime()} after the answer
 */
public record ClockReading(Instant sentAt, Instant database, Instant receivedAt, long receivedNanos) {

    public ClockReading {
        Objects.requireNonNull(sentAt, "sentAt must not be null");
        Objects.requireNonNull(database, "database must not be null");
        Objects.requireNonNull(receivedAt, "receivedAt must not be null");
        if (receivedAt.isBefore(sentAt)) {
            throw new IllegalArgumentException("receivedAt: must not be before sentAt=" + sentAt + ", was " + receivedAt);
        }
    }

    /** @return database time minus this replica's time, at the middle of the round trip: negative when ahead */
    public Duration skew() {
        Instant middle = sentAt.plus(Duration.between(sentAt, receivedAt).dividedBy(2));
        return Duration.between(middle, database);
    }

    /** @return whether this replica's clock is off the database's by more than {@code max}, either way */
    public boolean beyond(Duration max) {
        return skew().abs().compareTo(max) > 0;
    }

    /**
     * @param instant a time, by the database's clock
     * @param nanosNow {@link System#nanoTime()} now
     * @return how long until the database's clock reaches {@code instant}, at the most (zero or negative if it has)
     */
    public Duration until(Instant instant, long nanosNow) {
        Instant databaseNowAtLeast = database.plusNanos(nanosNow - receivedNanos);
        return Duration.between(databaseNowAtLeast, instant);
    }
}
