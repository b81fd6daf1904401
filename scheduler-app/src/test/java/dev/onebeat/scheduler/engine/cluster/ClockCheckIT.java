package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import dev.onebeat.scheduler.boot.startup.StartupProperties;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.Scheduler;
import org.quartz.impl.StdSchedulerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The clock check, the guard and the database clock against a real PostgreSQL, with this JVM's clock shifted by a
 * settable offset, and a real (in-memory) Quartz scheduler for the guard to hold and resume.
 */
@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
class ClockCheckIT {

    private final ShiftedClock clock = new ShiftedClock();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private Scheduler scheduler;
    private JdbcClient jdbc;
    private DatabaseClock databaseClock;

    @BeforeEach
    void quartz(TestDatabase database) throws Exception {
        Properties properties = new Properties();
        properties.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, "clock-check-" + System.nanoTime());
        properties.setProperty("org.quartz.threadPool.threadCount", "1");
        properties.setProperty(StdSchedulerFactory.PROP_JOB_STORE_CLASS, "org.quartz.simpl.RAMJobStore");
        scheduler = new StdSchedulerFactory(properties).getScheduler();
        scheduler.start();
        jdbc = JdbcClient.create(database.dataSource());
        databaseClock = new DatabaseClock(jdbc, clock);
    }

    @AfterEach
    void stopQuartz() throws Exception {
        scheduler.shutdown();
    }

    private ClockGuard guard(Duration maxSkew) {
        return new ClockGuard(databaseClock, scheduler, new ClockProperties(maxSkew, Duration.ofSeconds(1)), meters);
    }

    @Test
    void replicaClockInStepWithTheDatabaseIsReportedWithoutWarning(CapturedOutput output) {
        ClockGuard guard = guard(Duration.ofSeconds(5));
        ClockCheck check = new ClockCheck(databaseClock, guard, new DatabaseStartup(StartupProperties.DEFAULTS));

        check.checkAtStartup();
        guard.check();
        Health health = check.health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(Math.abs((Long) health.getDetails().get("skewMillis"))).isLessThan(1000);
        assertThat(health.getDetails()).doesNotContainKey("warning").containsEntry("firing", "active");
        assertThat(output).contains("clock check ok");
    }

    @Test
    void replicaClockFiveSecondsAheadWithinTheMaximumIsWarnedAtStartupAndInHealthAndKeepsFiring(CapturedOutput output)
            throws Exception {
        clock.shift(Duration.ofSeconds(5));
        ClockGuard guard = guard(Duration.ofSeconds(10));
        ClockCheck check = new ClockCheck(databaseClock, guard, new DatabaseStartup(StartupProperties.DEFAULTS));

        check.checkAtStartup();
        guard.check();
        Health health = check.health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat((Long) health.getDetails().get("skewMillis")).isBetween(-6000L, -4000L);
        assertThat(health.getDetails()).containsKey("warning").containsEntry("firing", "active");
        assertThat(output).contains("WARN").contains("clock skew above PT1S");
        assertThat(scheduler.isInStandbyMode()).isFalse();
        assertThat(meters.get("onebeat.clock.skew").gauge().value()).isBetween(-6.0, -4.0);
    }

    @Test
    void replicaClockBeyondTheMaximumPutsFiringOnHoldSayingWhyUntilItIsBack(CapturedOutput output) throws Exception {
        ClockGuard guard = guard(Duration.ofSeconds(5));
        ClockCheck check = new ClockCheck(databaseClock, guard, new DatabaseStartup(StartupProperties.DEFAULTS));
        clock.shift(Duration.ofSeconds(-8));

        guard.check();

        assertThat(scheduler.isInStandbyMode()).as("Quartz acquires nothing while on hold").isTrue();
        Health held = check.health();
        assertThat(held.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(held.getDetails()).containsEntry("firing", "on hold").containsEntry("maxSkewMillis", 5000L);
        assertThat((String) held.getDetails().get("reason")).contains("onebeat.cluster.max-clock-skew");
        assertThat(meters.get("onebeat.clock.firing.held").gauge().value()).isEqualTo(1.0);
        assertThat(output).contains("firing on hold");

        clock.shift(Duration.ZERO);
        guard.check();

        assertThat(scheduler.isInStandbyMode()).isFalse();
        assertThat(check.health().getStatus()).isEqualTo(Status.UP);
        assertThat(meters.get("onebeat.clock.firing.held").gauge().value()).isZero();
        assertThat(output).contains("firing resumed");
    }

    @Test
    void aGuardDoesNotStartAQuartzItDidNotHold() throws Exception {
        scheduler.standby();
        clock.shift(Duration.ofSeconds(-8));
        ClockGuard guard = guard(Duration.ofSeconds(5));
        guard.check();
        clock.shift(Duration.ZERO);

        guard.check();

        assertThat(scheduler.isInStandbyMode()).isTrue();
    }

    @Test
    void aGuardStoppedMidHoldResumesNothingAndChecksAgainWhenTheContextStartsAgain() throws Exception {
        ClockGuard guard = guard(Duration.ofSeconds(5));
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean(ClockGuard.class, () -> guard);
            context.refresh();
            clock.shift(Duration.ofSeconds(-8));
            guard.check();
            assertThat(scheduler.isInStandbyMode()).as("held").isTrue();

            // a stop; a check already running when it came finds the clock back, and must not start Quartz
            context.stop();
            clock.shift(Duration.ZERO);
            guard.check();
            assertThat(scheduler.isInStandbyMode()).as("after a stop, not resumed by a late check").isTrue();

            // a start (Spring starts Quartz again in the same phase) with the clock off again: held at once, not
            // a check interval later
            clock.shift(Duration.ofSeconds(-8));
            scheduler.start();
            context.start();
            assertThat(scheduler.isInStandbyMode()).as("held again as the context started").isTrue();
            assertThat(meters.get("onebeat.clock.firing.held").gauge().value()).isEqualTo(1.0);
        }
    }

    @Test
    void aFireOnAReplicaAheadWaitsUntilTheDatabaseClockHasReachedItsInstant() {
        clock.shift(Duration.ofMillis(1500));
        databaseClock.read();
        Instant instant = clock.instant();

        assertThat(databaseClock.awaitReached(instant)).isTrue();

        OffsetDateTime databaseNow = jdbc.sql("SELECT clock_timestamp()")
                .query((rs, row) -> rs.getObject(1, OffsetDateTime.class)).single();
        assertThat(databaseNow.toInstant()).isAfterOrEqualTo(instant);
    }

    @Test
    void aFireWhoseInstantLiesFurtherAheadOfTheDatabaseThanTheLongestWaitIsRefusedAtOnce() {
        clock.shift(DatabaseClock.MAX_WAIT.plusSeconds(30));
        databaseClock.read();
        long before = System.nanoTime();

        assertThat(databaseClock.awaitReached(clock.instant())).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));
    }

    /** The system clock shifted by an offset the test sets. */
    private static final class ShiftedClock extends Clock {

        private volatile Duration offset = Duration.ZERO;

        void shift(Duration offset) {
            this.offset = offset;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("a UTC clock");
        }

        @Override
        public Instant instant() {
            return Clock.systemUTC().instant().plus(offset);
        }
    }
}
