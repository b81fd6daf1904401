package dev.onebeat.scheduler.cluster;

import dev.onebeat.scheduler.startup.DatabaseStartup;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Compares this replica's clock with the database's {@code now()}. Locks use database time and task
 * keys use scheduled times, so skew does not break exactly-once; but Quartz fires by the replica's
 * clock and judges peers' check-ins by it, so operators must know. Reported as health {@code clock}.
 */
@Component("clockHealthIndicator")
class ClockCheck implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(ClockCheck.class);
    static final Duration WARN_ABOVE = Duration.ofSeconds(1);

    private final JdbcClient jdbc;
    private final Clock clock;
    private final DatabaseStartup startup;

    ClockCheck(JdbcClient jdbc, Clock clock, DatabaseStartup startup) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.startup = startup;
    }

    /** @return database time minus this replica's time, measured at the middle of the round trip */
    Duration skew() {
        Instant before = clock.instant();
        Timestamp database = jdbc.sql("SELECT now()").query(Timestamp.class).single();
        Instant after = clock.instant();
        Instant middle = before.plus(Duration.between(before, after).dividedBy(2));
        return Duration.between(middle, database.toInstant());
    }

    @EventListener(ApplicationReadyEvent.class)
    void checkAtStartup() {
        // a failure in a ready listener ends the start: a session terminated just then must not
        Duration skew = startup.run("clock check", this::skew);
        if (skew.abs().compareTo(WARN_ABOVE) > 0) {
            log.warn("clock skew above {}: database time minus replica time = {} ms; fix NTP on this host",
                    WARN_ABOVE, skew.toMillis());
        } else {
            log.info("clock check ok: database time minus replica time = {} ms", skew.toMillis());
        }
    }

    @Override
    public Health health() {
        Duration skew = skew();
        Health.Builder health = Health.up().withDetail("skewMillis", skew.toMillis());
        if (skew.abs().compareTo(WARN_ABOVE) > 0) {
            health.withDetail("warning", "replica clock differs from the database by more than " + WARN_ABOVE);
        }
        return health.build();
    }
}
