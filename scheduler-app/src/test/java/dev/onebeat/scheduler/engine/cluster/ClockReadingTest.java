package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ClockReadingTest {

    private static final Instant SENT = Instant.parse("2026-12-04T10:00:00Z");
    private static final long RECEIVED_NANOS = 5_000_000_000L;

    private static ClockReading reading(Instant database, Duration roundTrip) {
        return new ClockReading(SENT, database, SENT.plus(roundTrip), RECEIVED_NANOS);
    }

    @Test
    void skewIsTheDatabaseTimeMinusTheMiddleOfTheRoundTrip() {
        ClockReading reading = reading(SENT.minusSeconds(3).plusMillis(10), Duration.ofMillis(20));

        assertThat(reading.skew()).isEqualTo(Duration.ofMillis(-3000));
    }

    @Test
    void aReplicaIsBeyondTheMaximumEitherWayButNotAtIt() {
        Duration max = Duration.ofSeconds(5);

        assertThat(reading(SENT.minusSeconds(6), Duration.ZERO).beyond(max)).as("ahead").isTrue();
        assertThat(reading(SENT.plusSeconds(6), Duration.ZERO).beyond(max)).as("behind").isTrue();
        assertThat(reading(SENT.plusSeconds(5), Duration.ZERO).beyond(max)).as("at it").isFalse();
    }

    @Test
    void theWaitForAnInstantCountsFromTheDatabasesTimeAsIfReadAtTheEndOfTheRoundTrip() {
        // the database said 09:59:57.010; one second of the monotonic clock later it is at least 09:59:58.010
        ClockReading reading = reading(SENT.minusSeconds(3).plusMillis(10), Duration.ofMillis(20));
        long secondLater = RECEIVED_NANOS + 1_000_000_000L;

        assertThat(reading.until(Instant.parse("2026-12-04T10:00:00Z"), secondLater)).isEqualTo(Duration.ofMillis(1990));
        assertThat(reading.until(Instant.parse("2026-12-04T09:59:58Z"), secondLater)).isNegative();
    }

    @Test
    void theWaitDoesNotDependOnTheReplicasWallClockSoAClockSteppedSinceTheReadingChangesNothing() {
        ClockReading reading = reading(SENT, Duration.ZERO);

        // whatever the wall clock says now, 400 ms of the monotonic clock have passed since the reading
        assertThat(reading.until(SENT.plusSeconds(1), RECEIVED_NANOS + 400_000_000L)).isEqualTo(Duration.ofMillis(600));
    }

    @Test
    void aReadingReceivedBeforeItWasSentIsRefusedNamingTheField() {
        assertThatThrownBy(() -> new ClockReading(SENT, SENT, SENT.minusMillis(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("receivedAt:");
    }
}
