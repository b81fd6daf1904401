package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogicalInstantsTest {

    @ParameterizedTest(name = "every {0}s fired at {1} stands for {2}")
    @CsvSource(textBlock = """
            10,   2026-11-29T08:00:10Z,     2026-11-29T08:00:10Z
            10,   2026-11-29T08:00:17.345Z, 2026-11-29T08:00:10Z
            60,   2026-11-29T08:00:59.999Z, 2026-11-29T08:00:00Z
            3600, 2026-11-29T08:42:00Z,     2026-11-29T08:00:00Z
            """)
    void intervalFireMapsToTheLatestGridInstant(long seconds, Instant firedAt, Instant expected) {
        assertThat(LogicalInstants.of(Timetable.of(Schedule.every(Duration.ofSeconds(seconds))), firedAt)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} in {1} fired at {2} stands for {3}")
    @CsvSource(textBlock = """
            0 0 8 * * ?,     UTC,          2026-11-29T08:00:00Z,     2026-11-29T08:00:00Z
            0 0 8 * * ?,     UTC,          2026-11-29T08:00:07.345Z, 2026-11-29T08:00:00Z
            0 0 8 * * ?,     UTC,          2026-11-29T07:59:59Z,     2026-11-28T08:00:00Z
            0 */5 * * * ?,   UTC,          2026-11-29T10:12:33Z,     2026-11-29T10:10:00Z
            0 0 8 * * ?,     Europe/Paris, 2026-11-29T07:30:00Z,     2026-11-29T07:00:00Z
            0 0 0 1 1 ?,     UTC,          2026-06-01T12:00:00Z,     2026-01-01T00:00:00Z
            0 0 0 1 1 ?,     UTC,          2026-12-20T12:00:00Z,     2026-01-01T00:00:00Z
            0 0 0 29 2 ?,    UTC,          2029-02-27T00:00:00Z,     2028-02-29T00:00:00Z
            """)
    void cronFireMapsToTheLatestScheduledInstantUpTo800DaysBack(String cron, String zone, Instant firedAt,
                                                                Instant expected) {
        assertThat(LogicalInstants.of(Timetable.of(Schedule.cron(cron, ZoneId.of(zone))), firedAt)).isEqualTo(expected);
    }

    @Test
    void fireWithNoInstantInTheLast800DaysStandsForItself() {
        Instant firedAt = Instant.parse("2031-03-01T00:00:00Z");

        // 29 February falls 1,096 days before: beyond the look-back, so no earlier instant is invented
        assertThat(LogicalInstants.of(Timetable.of(Schedule.cron("0 0 0 29 2 ?")), firedAt)).isEqualTo(firedAt);
    }
}
