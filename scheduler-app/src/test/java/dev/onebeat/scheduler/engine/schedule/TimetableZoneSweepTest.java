package dev.onebeat.scheduler.engine.schedule;

import static java.time.DayOfWeek.SATURDAY;
import static java.time.DayOfWeek.SUNDAY;
import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.toList;
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
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every zone of the JDK's tzdb, checked against the brute-force {@link ReferenceTimetable} over the two
 * years from 2027-01-01T00:00Z to 2029-01-01T00:00Z. Instants are compared whole: instant, wall-clock
 * time, offset, kind and rule.
 *
 * <p>The crons, each also written as a hand-made predicate on wall-clock times, fall in two groups.
 * Daily ones: {@code 30 2 * * *}, {@code 0 0 * * *}, {@code 0 1 * * *}, {@code 45 23 * * SAT},
 * {@code 0 30 1 ? * SUN}, the seconds cron {@code 10,50 30 2 ? * SUN} and
 * {@code 0 30 2 ? 3,10 SUN 2027}, which stops firing at the end of 2027. Sub-daily ones:
 * {@code *}{@code /15 * * * *}, {@code 0 * * * *}, {@code 30 * * * *} and the seconds cron
 * {@code 30 0 * * * ?}, which count elapsed time, and {@code 0,30 0-3 * * *}, which does not. The
 * policies: the default ({@code gap=shift overlap=first}), {@code gap=skip}, {@code overlap=last} and
 * {@code overlap=both}.
 *
 * <p>Most of the 600-odd zone ids share their rules over these years with another, so the full check
 * runs once for each distinct behaviour (the offset two weeks before the sweep and the transitions
 * until two weeks after it), with the first id of it in alphabetical order. Every id still gets a test
 * of its own: its behaviour's full check, plus a short check of a model built with that very id.
 *
 * <p>The full check, for every cron and every policy:
 * <ul>
 *   <li>daily crons: the whole sequence of {@code next}, each from the previous instant, over the two
 *       years (for a behaviour without a transition, under the default policy only, the others being
 *       checked over the quiet windows below);</li>
 *   <li>sub-daily crons: that sequence over two days either side of every transition; under the
 *       default policy, also over two quiet windows of four days without a transition, and over the
 *       whole two years for the behaviours of Europe/Paris and Australia/Lord_Howe (the three
 *       minute crons);</li>
 *   <li>around each transition: {@code next} from points 433 s apart from an hour more than the clocks'
 *       change before the transition to as long after it (so from inside and on both sides of every gap
 *       and overlap), and from a nanosecond before each instant listed there;
 *       {@code latestAtOrBefore} from points 3897 s apart over the same span; {@code between} over two
 *       days either side (daily crons) or that span (sub-daily crons), unlimited and cut just after the
 *       transition, and over the span from the transition on;</li>
 *   <li>quiet windows: the sequence of {@code next} and {@code between}.</li>
 * </ul>
 * The short check of each id asks {@code between} over the span of each of its transitions, or over
 * the first six hours of the sweep when it has none, for every cron under the default policy and
 * {@code gap=skip}.
 */
class TimetableZoneSweepTest {

    private static final Instant FROM = Instant.parse("2027-01-01T00:00:00Z");
    private static final Instant TO = Instant.parse("2029-01-01T00:00:00Z");
    /** Beyond the references' margins and the wall clock they walk. */
    private static final Duration EDGE = Duration.ofDays(14);

    private static final List<DstPolicy> POLICIES = List.of(DstPolicy.DEFAULT,
            DstPolicy.DEFAULT.withGap(DstPolicy.Gap.SKIP), DstPolicy.DEFAULT.withOverlap(DstPolicy.Overlap.LAST),
            DstPolicy.DEFAULT.withOverlap(DstPolicy.Overlap.BOTH));
    private static final List<DstPolicy> BRIEF_POLICIES = POLICIES.subList(0, 2);

    private static final List<SweepCron> DAILY = List.of(
            SweepCron.of("30 2 * * *", t -> t.getHour() == 2 && t.getMinute() == 30),
            SweepCron.of("0 0 * * *", t -> t.getHour() == 0 && t.getMinute() == 0),
            SweepCron.of("0 1 * * *", t -> t.getHour() == 1 && t.getMinute() == 0),
            SweepCron.of("45 23 * * SAT",
                    t -> t.getDayOfWeek() == SATURDAY && t.getHour() == 23 && t.getMinute() == 45),
            SweepCron.of("0 30 1 ? * SUN", t -> t.getDayOfWeek() == SUNDAY && t.getHour() == 1 && t.getMinute() == 30),
            SweepCron.of("10,50 30 2 ? * SUN",
                    t -> t.getDayOfWeek() == SUNDAY && t.getHour() == 2 && t.getMinute() == 30).atSeconds(10, 50),
            SweepCron.of("0 30 2 ? 3,10 SUN 2027", t -> t.getYear() == 2027
                    && (t.getMonthValue() == 3 || t.getMonthValue() == 10)
                    && t.getDayOfWeek() == SUNDAY && t.getHour() == 2 && t.getMinute() == 30));
    private static final List<SweepCron> SUB_DAILY = List.of(
            SweepCron.of("*/15 * * * *", t -> t.getMinute() % 15 == 0).countingElapsedTime(),
            SweepCron.of("0 * * * *", t -> t.getMinute() == 0).countingElapsedTime(),
            SweepCron.of("30 * * * *", t -> t.getMinute() == 30).countingElapsedTime(),
            SweepCron.of("30 0 * * * ?", t -> t.getMinute() == 0).atSeconds(30).countingElapsedTime(),
            SweepCron.of("0,30 0-3 * * *", t -> t.getHour() <= 3 && t.getMinute() % 30 == 0));
    private static final Set<String> FULL_SUB_DAILY = Set.of("Europe/Paris", "Australia/Lord_Howe");
    private static final List<SweepCron> FULL_SUB_DAILY_CRONS = SUB_DAILY.subList(0, 3);

    private static Map<SweepCron, SweepCron.WallClockTimes> wallClock;
    private static Map<Behaviour, Checked> checked;
    private static Map<String, List<String>> brieflyChecked;

    @BeforeAll
    static void checkEachBehaviourOnceAndEachZoneBriefly() {
        LocalDateTime start = LocalDateTime.ofInstant(FROM.minus(EDGE), ZoneOffset.UTC);
        LocalDateTime end = LocalDateTime.ofInstant(TO.plus(EDGE), ZoneOffset.UTC);
        wallClock = Stream.concat(DAILY.stream(), SUB_DAILY.stream()).parallel()
                .collect(Collectors.toMap(Function.identity(), cron -> cron.wallClockTimes(start, end)));
        Map<Behaviour, List<String>> zones = ZoneId.getAvailableZoneIds().stream().sorted()
                .collect(groupingBy(id -> Behaviour.of(ZoneId.of(id).getRules()), LinkedHashMap::new, toList()));
        checked = zones.entrySet().parallelStream().collect(Collectors.toConcurrentMap(Map.Entry::getKey,
                e -> check(e.getValue().get(0), e.getValue().stream().anyMatch(FULL_SUB_DAILY::contains))));
        brieflyChecked = ZoneId.getAvailableZoneIds().parallelStream()
                .collect(Collectors.toConcurrentMap(Function.identity(), TimetableZoneSweepTest::checkBriefly));
    }

    @TestFactory
    Stream<DynamicTest> everyZoneFiresAsTheReferenceSays() {
        return ZoneId.getAvailableZoneIds().stream().sorted().map(id -> dynamicTest(id, () -> {
            Checked behaviour = checked.get(Behaviour.of(ZoneId.of(id).getRules()));
            List<String> differences = new ArrayList<>(behaviour.differences());
            differences.addAll(brieflyChecked.get(id));
            String checkedAs = behaviour.zone().equals(id) ? ""
                    : " (checked in full as " + behaviour.zone() + ", whose offsets and transitions are the same)";
            assertThat(differences)
                    .withFailMessage(() -> Disagreements.report(id + checkedAs + " disagrees with the reference",
                            differences))
                    .isEmpty();
        }));
    }

    private static Checked check(String id, boolean fullSubDaily) {
        ZoneSweep sweep = new ZoneSweep(ZoneId.of(id), FROM, TO);
        List<String> differences = new ArrayList<>();
        for (DstPolicy policy : POLICIES) {
            boolean byDefault = policy.equals(DstPolicy.DEFAULT);
            for (SweepCron cron : DAILY) {
                // without a transition the policy has nothing to act on: one full run is enough
                differences.addAll(sweep.hasTransitions() || byDefault
                        ? sweep.inFull(cron, wallClock.get(cron), policy)
                        : sweep.quietly(cron, wallClock.get(cron), policy));
            }
            for (SweepCron cron : SUB_DAILY) {
                if (byDefault && fullSubDaily && FULL_SUB_DAILY_CRONS.contains(cron)) {
                    differences.addAll(sweep.inFull(cron, wallClock.get(cron), policy));
                    continue;
                }
                differences.addAll(sweep.aroundTransitions(cron, wallClock.get(cron), policy));
                if (byDefault) {
                    differences.addAll(sweep.quietly(cron, wallClock.get(cron), policy));
                }
            }
        }
        return new Checked(id, differences);
    }

    private static List<String> checkBriefly(String id) {
        ZoneSweep sweep = new ZoneSweep(ZoneId.of(id), FROM, TO);
        List<String> differences = new ArrayList<>();
        for (DstPolicy policy : BRIEF_POLICIES) {
            Stream.concat(DAILY.stream(), SUB_DAILY.stream())
                    .forEach(cron -> differences.addAll(sweep.briefly(cron, wallClock.get(cron), policy)));
        }
        return differences;
    }

    /** What a zone's rules do around the sweep: two zones with the same behaviour fire alike in it. */
    private record Behaviour(ZoneOffset offset, List<ZoneOffsetTransition> transitions) {

        static Behaviour of(ZoneRules rules) {
            Instant start = FROM.minus(EDGE);
            return new Behaviour(rules.getOffset(start), ZoneSweep.transitions(rules, start, TO.plus(EDGE)));
        }
    }

    /** The full check of a behaviour, run with {@code zone}. */
    private record Checked(String zone, List<String> differences) {
    }
}
