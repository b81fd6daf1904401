package dev.onebeat.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.startup.DatabaseStartup;
import dev.onebeat.scheduler.startup.StartupProperties;
import dev.onebeat.testsupport.PostgresExtension;
import dev.onebeat.testsupport.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
class ClockCheckIT {

    @Test
    void replicaClockInStepWithTheDatabaseIsReportedWithoutWarning(TestDatabase database, CapturedOutput output) {
        ClockCheck check = new ClockCheck(JdbcClient.create(database.dataSource()), Clock.systemUTC(),
                new DatabaseStartup(StartupProperties.DEFAULTS));

        check.checkAtStartup();
        Health health = check.health();

        assertThat(Math.abs((Long) health.getDetails().get("skewMillis"))).isLessThan(1000);
        assertThat(health.getDetails()).doesNotContainKey("warning");
        assertThat(output).contains("clock check ok");
    }

    @Test
    void replicaClockFiveSecondsAheadIsWarnedAtStartupAndInHealth(TestDatabase database, CapturedOutput output) {
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5));
        ClockCheck check = new ClockCheck(JdbcClient.create(database.dataSource()), ahead,
                new DatabaseStartup(StartupProperties.DEFAULTS));

        check.checkAtStartup();
        Health health = check.health();

        assertThat((Long) health.getDetails().get("skewMillis")).isBetween(-6000L, -4000L);
        assertThat(health.getDetails()).containsKey("warning");
        assertThat(output).contains("WARN").contains("clock skew above PT1S");
    }
}
