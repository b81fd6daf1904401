package dev.onebeat.scheduler.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.onebeat.job.DstPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every transition in the JDK's tzdb from February 1970 to 2040 that moves the clocks by more than
 * two hours (a whole day skipped in Apia and Fakaofo in 2011, in Kiribati in 1994 and in Kwajalein
 * in 1993; Casey's three hours forth and back from 2009 to 2023; Vostok and Rothera switching between
 * UTC and local time; Danmarkshavn in 1996, Ust-Nera in 1981), each checked with the first zone id
 * that has it against the {@link ReferenceTimetable}, for a few crons and the four policies of
 * {@link TimetableZoneSweepTest}: {@code next} followed over two days either side of the transition,
 * and {@code next}, {@code latestAtOrBefore} and {@code between} asked across it as that sweep does.
 * Before 1970 the model answers from 1970 on (see {@link Timetable}), so earlier transitions are left
 * out.
 */
class TimetableLargeTransitionsTest {

    /** Quartz's calendar, which matches the wall-clock times, starts in 1970; the windows need a month. */
    private static final Instant FROM = Instant.parse("1970-02-01T00:00:00Z");
    private static final Instant TO = Instant.parse("2040-01-01T00:00:00Z");
    private static final Duration LARGE = Duration.ofHours(2);
    /** Wider than the sweep's windows, its references' margins and the wall clock they walk. */
    private static final Duration WALKED = Duration.ofDays(12);

    private static final List<DstPolicy> POLICIES = List.of(DstPolicy.DEFAULT,
            DstPolicy.DEFAULT.withGap(DstPolicy.Gap.SKIP), DstPolicy.DEFAULT.withOverlap(DstPolicy.Overlap.LAST),
            DstPolicy.DEFAULT.withOverlap(DstPolicy.Overlap.BOTH));
    private static final List<SweepCron> CRONS = List.of(
            SweepCron.of("0 0 * * *", t -> t.getHour() == 0 && t.getMinute() == 0),
            SweepCron.of("0 9 * * *", t -> t.getHour() == 9 && t.getMinute() == 0),
            SweepCron.of("30 2 * * *", t -> t.getHour() == 2 && t.getMinute() == 30),
            SweepCron.of("0,30 0-3 * * *", t -> t.getHour() <= 3 && t.getMinute() % 30 == 0),
            SweepCron.of("0 * * * *", t -> t.getMinute() == 0).countingElapsedTime(),
            SweepCron.of("*/15 * * * *", t -> t.getMinute() % 15 == 0).countingElapsedTime());

    @TestFactory
    Stream<DynamicTest> everyLargeTransitionFiresAsTheReferenceSays() {
        return largeTransitions().entrySet().stream().map(e -> {
            ZoneOffsetTransition transition = e.getKey();
            String zone = e.getValue();
            return dynamicTest(zone + " " + transition, () -> {
                Instant at = transition.getInstant();
                ZoneSweep sweep = new ZoneSweep(ZoneId.of(zone), at, at.plusSeconds(1));
                LocalDateTime start = LocalDateTime.ofInstant(at.minus(WALKED), ZoneOffset.UTC);
                LocalDateTime end = LocalDateTime.ofInstant(at.plus(WALKED), ZoneOffset.UTC);
                List<String> differences = new ArrayList<>();
                for (SweepCron cron : CRONS) {
                    SweepCron.WallClockTimes times = cron.wallClockTimes(start, end);
                    for (DstPolicy policy : POLICIES) {
                        differences.addAll(sweep.aroundTransitions(cron, times, policy));
                    }
                }
                assertThat(differences)
                        .withFailMessage(() -> Disagreements.report(
                                zone + " disagrees with the reference around " + transition, differences))
                        .isEmpty();
            });
        });
    }

    /** @return each large transition, with the first zone id (alphabetically) that has it, in that order */
    private static Map<ZoneOffsetTransition, String> largeTransitions() {
        Map<ZoneOffsetTransition, String> found = new LinkedHashMap<>();
        for (String id : new TreeSet<>(ZoneId.getAvailableZoneIds())) {
            ZoneRules rules = ZoneId.of(id).getRules();
            for (ZoneOffsetTransition t : ZoneSweep.transitions(rules, FROM, TO)) {
                if (t.getDuration().abs().compareTo(LARGE) > 0) {
                    found.putIfAbsent(t, id);
                }
            }
        }
        return found;
    }
}
