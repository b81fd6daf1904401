package dev.onebeat.scheduler.engine.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelayLoopHealthTest {

    private static final Instant START = Instant.parse("2026-12-02T08:00:00Z");

    private final SettableClock clock = new SettableClock(START);
    private final RelayLoopHealth health = new RelayLoopHealth("rabbit", List.of("emails"), clock);

    @Test
    void newLoopIsIdleAndNotFailing() {
        assertThat(health.state()).isEqualTo(new RelayLoopHealth.State("rabbit", List.of("emails"), null, null, null));
        assertThat(health.failing()).isFalse();
    }

    @Test
    void failingSinceIsTheClockInstantOfTheFirstFailureInARow() {
        health.failed("ConnectException: refused");
        clock.advance(Duration.ofSeconds(5));
        health.failed("ConnectException: still refused");

        assertThat(health.state().failingSince()).isEqualTo(START);
        assertThat(health.state().lastError()).isEqualTo("ConnectException: still refused");
        assertThat(health.consecutiveFailures()).isEqualTo(2);
        assertThat(health.failing()).isTrue();
    }

    @Test
    void publishingEndsTheFailureAtTheClockInstantAndKeepsTheLastError() {
        health.failed("ConnectException: refused");
        clock.advance(Duration.ofSeconds(30));
        health.published();

        RelayLoopHealth.State state = health.state();
        assertThat(state.failingSince()).isNull();
        assertThat(state.lastPublished()).isEqualTo(START.plusSeconds(30));
        assertThat(state.lastError()).isEqualTo("ConnectException: refused");
        assertThat(health.consecutiveFailures()).isZero();
    }

    @Test
    void failureAfterRecoveryStartsANewFailingSince() {
        health.failed("first outage");
        clock.advance(Duration.ofMinutes(1));
        health.published();
        clock.advance(Duration.ofMinutes(1));
        health.failed("second outage");

        assertThat(health.state().failingSince()).isEqualTo(START.plus(Duration.ofMinutes(2)));
        assertThat(health.consecutiveFailures()).isEqualTo(1);
    }
}
