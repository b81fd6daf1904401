package dev.onebeat.scheduler.engine.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The database's clock as this replica sees it: the cluster's one time. Quartz acquires and fires triggers by the
 * replica's own clock, so a replica whose clock runs ahead would begin fires before their instants; the fire path
 * asks here and waits ({@link #awaitReached}) until the database's clock has reached the instant.
 */
@Component
public class DatabaseClock {

    private static final Logger log = LoggerFactory.getLogger(DatabaseClock.class);
    /**
     * The longest a fire waits for the database's clock. Quartz acquires a trigger at most its idle wait before its
     * instant by the replica's clock, so a fire waits about the replica's lead; past a minute (Quartz's misfire
     * threshold) the replica's clock is too far off for Quartz itself, and the fire is refused instead.
     */
    public static final Duration MAX_WAIT = Duration.ofMinutes(1);

    private final JdbcClient jdbc;
    private final Clock clock;
    private volatile ClockReading last;

    DatabaseClock(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Reads the database's clock now, and keeps the reading for the fires that follow. */
    public ClockReading read() {
        Instant sent = clock.instant();
        // clock_timestamp(), not now(): now() is the start of the transaction, older than the query under a pooler
        OffsetDateTime database = jdbc.sql("SELECT clock_timestamp()")
                .query((rs, row) -> rs.getObject(1, OffsetDateTime.class)).single();
        ClockReading reading = new ClockReading(sent, database.toInstant(), clock.instant(), System.nanoTime());
        last = reading;
        return reading;
    }

    /** @return the latest reading, or null before the first */
    public ClockReading last() {
        return last;
    }

    /**
     * Waits until the database's clock has reached {@code instant}, as the latest reading says (one is taken if there is
     * none). Not interruptible: a fire that has begun finishes, as Quartz expects of a job at shutdown. If the
     * database cannot be read, the fire goes on uncorrected: it cannot commit before it can reach the database.
     *
     * @return false if the instant lies more than {@link #MAX_WAIT} ahead of the database's clock: not waited for
     */
    public boolean awaitReached(Instant instant) {
        ClockReading reading = last;
        if (reading == null) {
            try {
                reading = read();
            } catch (RuntimeException e) {
                log.warn("database clock not read, fire not corrected for clock skew instant={} error={}", instant,
                        e.toString());
                return true;
            }
        }
        Duration wait = reading.until(instant, System.nanoTime());
        if (wait.compareTo(MAX_WAIT) > 0) {
            return false;
        }
        boolean interrupted = false;
        try {
            while (!wait.isNegative() && !wait.isZero()) {
                try {
                    Thread.sleep(wait.toMillis(), wait.toNanosPart() % 1_000_000);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                wait = reading.until(instant, System.nanoTime());
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return true;
    }

    /**
     * @return the database's time now as the latest reading tells it (by the monotonic clock since, from the end of
     *     its round trip: at most a round trip early); this replica's time if there is no reading yet
     */
    public Instant now() {
        ClockReading reading = last;
        return reading == null ? clock.instant() : reading.database().plusNanos(System.nanoTime() - reading.receivedNanos());
    }

    /** @return how far {@code instant} lies ahead of the database's clock now, by the latest reading (zero if none) */
    public Duration ahead(Instant instant) {
        ClockReading reading = last;
        return reading == null ? Duration.ZERO : reading.until(instant, System.nanoTime());
    }
}
