package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Health {@code clock}: this replica's clock against the database's, as {@link ClockGuard} last measured it. UP
 * while the two agree within {@code onebeat.cluster.max-clock-skew} (with a warning above {@link #WARN_ABOVE}: fires
 * then wait for the database's time, Quartz's own timing is off by the skew); {@code OUT_OF_SERVICE} while the
 * replica's firing is on hold because they do not, saying why. Locks, the ledger and task keys use database time and
 * scheduled times, so skew never breaks exactly-once; it would make fires early or late.
 */
@Component("clockHealthIndicator")
class ClockCheck implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(ClockCheck.class);
    static final Duration WARN_ABOVE = Duration.ofSeconds(1);

    private final DatabaseClock clock;
    private final ClockGuard guard;
    private final DatabaseStartup startup;

    ClockCheck(DatabaseClock clock, ClockGuard guard, DatabaseStartup startup) {
        this.clock = clock;
        this.guard = guard;
        this.startup = startup;
    }

    @EventListener(ApplicationReadyEvent.class)
    void checkAtStartup() {
        // a failure in a ready listener ends the start: a session terminated just then must not
        Duration skew = startup.run("clock check", () -> clock.read().skew());
        if (skew.abs().compareTo(WARN_ABOVE) > 0) {
            log.warn("clock skew above {}: database time minus replica time = {} ms; fix NTP on this host",
                    WARN_ABOVE, skew.toMillis());
        } else {
            log.info("clock check ok: database time minus replica time = {} ms", skew.toMillis());
        }
    }

    @Override
    public Health health() {
        ClockGuard.State state = guard.state();
        ClockReading reading = state.reading();
        if (reading == null) {
            return Health.unknown().withDetail("reason", "not measured yet").build();
        }
        Duration skew = reading.skew();
        Health.Builder health = (state.held() ? Health.status(Status.OUT_OF_SERVICE) : Health.up())
                .withDetail("skewMillis", skew.toMillis())
                .withDetail("maxSkewMillis", state.maxSkew().toMillis())
                .withDetail("measuredAt", reading.receivedAt().toString())
                .withDetail("firing", state.held() ? "on hold" : "active");
        if (state.held()) {
            health.withDetail("reason", "replica clock differs from the database's by " + skew.abs().toMillis()
                    + " ms, more than onebeat.cluster.max-clock-skew=" + state.maxSkew()
                    + ": this replica fires nothing until its clock is fixed (NTP); the others fire");
        } else if (skew.abs().compareTo(WARN_ABOVE) > 0) {
            health.withDetail("warning", "replica clock differs from the database by more than " + WARN_ABOVE
                    + "; fires wait for the database's time");
        }
        return health.build();
    }
}
