package dev.onebeat.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ClockReadingTest {

    private static final Instant SENT = Instant.parse("2026-12-04T10:00:00Z");

    @Test
    void skewIsTheDatabaseTimeMinusTheMiddleOfTheRoundTrip() {
        ClockReading reading = new ClockReading(SENT, SENT.minusSeconds(3).plusMillis(10), SENT.plusMillis(20));

        assertThat(reading.skew()).isEqualTo(Duration.ofMillis(-3000));
    }

    @Test
    void aReplicaIsBeyondTheMaximumEitherWayButNotAtIt() {
        Duration max = Duration.ofSeconds(5);

        assertThat(new ClockReading(SENT, SENT.minusSeconds(6), SENT).beyond(max)).as("ahead").isTrue();
        assertThat(new ClockReading(SENT, SENT.plusSeconds(6), SENT).beyond(max)).as("behind").isTrue();
        assertThat(new ClockReading(SENT, SENT.plusSeconds(5), SENT).beyond(max)).as("at it").isFalse();
    }

    @Test
    void theWaitForAnInstantAssumesTheDatabaseReadItsClockAsLateAsTheRoundTripAllows() {
        // the database said 09:59:57.010 somewhere between 10:00:00 and 10:00:00.020 of this replica
        ClockReading reading = new ClockReading(SENT, SENT.minusSeconds(3).plusMillis(10), SENT.plusMillis(20));
        Instant replicaNow = SENT.plusSeconds(1);

        // the database's now is at least 10:00:01 - 2.990 s = 09:59:58.010
        assertThat(reading.until(Instant.parse("2026-12-04T10:00:00Z"), replicaNow)).isEqualTo(Duration.ofMillis(1990));
        assertThat(reading.until(Instant.parse("2026-12-04T09:59:58Z"), replicaNow)).isNegative();
    }

    @Test
    void aReplicaBehindTheDatabaseWaitsForNoInstantItsOwnClockHasReached() {
        ClockReading reading = new ClockReading(SENT, SENT.plusSeconds(2), SENT.plusMillis(4));

        assertThat(reading.until(SENT.plusMillis(4), SENT.plusMillis(4))).isNegative();
    }

    @Test
    void aReadingReceivedBeforeItWasSentIsRefusedNamingTheField() {
        assertThatThrownBy(() -> new ClockReading(SENT, SENT, SENT.minusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("receivedAt:");
    }
}
