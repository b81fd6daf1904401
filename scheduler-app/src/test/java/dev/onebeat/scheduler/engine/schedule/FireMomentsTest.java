package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Where a job's fire of an instant begins: the instant plus its spread slot and its jitter. */
class FireMomentsTest {

    private static final Instant NOON = Instant.parse("2027-03-01T12:00:00Z");
    private static final Schedule HOURLY = Schedule.unixCron("0 * * * *", ZoneId.of("UTC"));
    private static final Duration PINNED_SPREAD = Duration.ofMillis(16_073);
    private static final Duration PINNED_JITTER = Duration.ofMillis(24_324);

    @Test
    void aJobWithNeitherFiresAtItsInstant() {
        PeriodicJob plain = Jobs.periodic("tenant-1", HOURLY).execute(context -> { });

        assertThat(FireMoments.moves(plain)).isFalse();
        assertThat(FireMoments.offset(plain, NOON)).isZero();
        assertThat(FireMoments.plannedAt(plain, NOON)).isEqualTo(NOON);
    }

    @Test
    void theOffsetsArePinnedSoThatAnUpgradeMovesNoJob() {
        // computed once from SHA-256 of the name (and instant): a change of formula would move every job's fires,
        // and replicas of two versions would wait for different moments
        assertThat(FireMoments.offset("tenant-1", Duration.ZERO, Duration.ofMinutes(1), NOON).toMillis())
                .isEqualTo(FireMoments.offset("tenant-1", Duration.ZERO, Duration.ofMinutes(1), NOON.plusSeconds(3600))
                        .toMillis());
        assertThat(FireMoments.offset("tenant-1", Duration.ZERO, Duration.ofMinutes(1), NOON)).isEqualTo(PINNED_SPREAD);
        assertThat(FireMoments.offset("tenant-1", Duration.ofSeconds(30), Duration.ZERO, NOON)).isEqualTo(PINNED_JITTER);
    }

    @Test
    void aSpreadPlacesEachJobAtTheSameOffsetAtEveryInstant() {
        PeriodicJob job = Jobs.periodic("tenant-42", HOURLY).spread(Duration.ofMinutes(1)).execute(context -> { });

        Set<Duration> offsets = new HashSet<>();
        for (int hour = 0; hour < 48; hour++) {
            offsets.add(FireMoments.offset(job, NOON.plusSeconds(3600L * hour)));
        }

        assertThat(offsets).hasSize(1);
        assertThat(offsets.iterator().next()).isBetween(Duration.ZERO, Duration.ofMillis(59_999));
    }

    @Test
    void aJitterMovesEachInstantByItsOwnOffsetBelowTheJitter() {
        PeriodicJob job = Jobs.periodic("tenant-42", HOURLY).jitter(Duration.ofSeconds(30)).execute(context -> { });

        Set<Duration> offsets = new HashSet<>();
        for (int hour = 0; hour < 48; hour++) {
            Duration offset = FireMoments.offset(job, NOON.plusSeconds(3600L * hour));
            assertThat(offset).isBetween(Duration.ZERO, Duration.ofMillis(29_999));
            offsets.add(offset);
        }

        assertThat(offsets).as("48 instants, nearly as many offsets").hasSizeGreaterThan(40);
    }

    @Test
    void bothAddUpAndStayBelowTheirSum() {
        PeriodicJob both = Jobs.periodic("tenant-7", HOURLY).jitter(Duration.ofSeconds(5)).spread(Duration.ofSeconds(20))
                .execute(context -> { });
        Duration spreadOnly = FireMoments.offset("tenant-7", Duration.ZERO, Duration.ofSeconds(20), NOON);
        Duration jitterOnly = FireMoments.offset("tenant-7", Duration.ofSeconds(5), Duration.ZERO, NOON);

        assertThat(FireMoments.offset(both, NOON)).isEqualTo(spreadOnly.plus(jitterOnly))
                .isLessThan(Duration.ofSeconds(25));
        assertThat(FireMoments.plannedAt(both, NOON)).isEqualTo(NOON.plus(spreadOnly).plus(jitterOnly));
    }

    @Test
    void tenThousandJobsSpreadOverAMinuteFillEverySecondEvenly() {
        int[] perSecond = new int[60];
        IntStream.range(0, 10_000).forEach(i -> perSecond[(int) FireMoments.offset("tenant-" + i, Duration.ZERO,
                Duration.ofMinutes(1), NOON).toSeconds()]++);

        // 166.7 a second on average; a uniform draw stays within 5 standard deviations (12.9) of it
        for (int second = 0; second < 60; second++) {
            assertThat(perSecond[second]).as("second %d", second).isBetween(102, 232);
        }
    }

    @Test
    void theShortestGapOfAnIntervalIsTheIntervalAndOfACronItsNarrowestStep() {
        Instant from = Instant.parse("2027-01-01T00:00:00Z");

        assertThat(FireMoments.shortestGap(Schedule.every(Duration.ofSeconds(90)), from)).isEqualTo(Duration.ofSeconds(90));
        assertThat(FireMoments.shortestGap(Schedule.unixCron("0,5 9 * * *", ZoneId.of("UTC")), from))
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(FireMoments.shortestGap(Schedule.unixCron("0 9 * * MON-FRI", ZoneId.of("UTC")), from))
                .isEqualTo(Duration.ofDays(1));
    }

    @Test
    void theShortestGapOfADailyCronIsShortenedByTheSpringChangeInItsZone() {
        // 01:30 and 03:30 Paris are an hour apart, not two, on the night clocks go forward
        Schedule twice = new Schedule.Cron("0 30 1,3 * * ?", ZoneId.of("Europe/Paris"), "30 1,3 * * *", DstPolicy.DEFAULT);

        assertThat(FireMoments.shortestGap(twice, Instant.parse("2027-03-01T00:00:00Z"))).isEqualTo(Duration.ofHours(1));
    }
}
