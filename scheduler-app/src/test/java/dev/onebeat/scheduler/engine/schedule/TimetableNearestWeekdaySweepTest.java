package dev.onebeat.scheduler.engine.schedule;

import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.toList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.onebeat.job.DstPolicy;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Crons with Quartz's {@code W} and {@code LW} ({@link NearestWeekdayCron}) checked against the
 * brute-force {@link ReferenceTimetable} over the five years 2026 to 2030, whatever the search starts
 * from. The reference walks the wall clock minute by minute with hand-written predicates: the nearest
 * weekday is found by looking at every weekday of the month and keeping the nearest, the last weekday
 * by walking back from the month's last day, with no Quartz and no code of the model.
 *
 * <p>In UTC, Africa/Cairo (whose clocks jump at midnight on a Friday, a weekday), Europe/Paris and
 * America/New_York, for every cron and the four policies: the whole sequence of {@code next}, each
 * from the previous instant; {@code next} from a nanosecond, a millisecond (a start ending in
 * {@code .999}) and a second before each listed instant, from the instant itself and just after it,
 * from local midnight and noon on the days around it, from points 433 s apart across every transition
 * (inside its gap or overlap and on both sides) and from random instants with random nanoseconds;
 * {@code latestAtOrBefore} at and just before listed instants and at random instants; {@code between}
 * over the five years, from each listed instant over three days, over each month, and cut at a few
 * limits.
 *
 * <p>Every other zone of the JDK's tzdb, once per distinct behaviour over the five years (see
 * {@link TimetableZoneSweepTest}), for four of the crons under the default policy and {@code gap=skip}:
 * the sequence of {@code next}, {@code between} over the five years, and {@code next} across each
 * transition and from random instants.
 */
class TimetableNearestWeekdaySweepTest {

    private static final Instant FROM = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant TO = Instant.parse("2031-01-01T00:00:00Z");
    /** Beyond the wall clock the references need: an offset is less than a day. */
    private static final Duration EDGE = Duration.ofDays(2);
    private static final int UNLIMITED = 1_000_000;
    private static final long POINT_STEP_SECONDS = 433;
    private static final List<String> FULL_ZONES = List.of("UTC", "Africa/Cairo", "Europe/Paris", "America/New_York");

    private static final List<DstPolicy> POLICIES = List.of(DstPolicy.DEFAULT,
            DstPolicy.DEFAULT.withGap(DstPolicy.Gap.SKIP), DstPolicy.DEFAULT.withOverlap(DstPolicy.Overlap.LAST),
            DstPolicy.DEFAULT.withOverlap(DstPolicy.Overlap.BOTH));
    private static final List<DstPolicy> SWEEP_POLICIES = POLICIES.subList(0, 2);

    private static final List<WeekdayCron> WEEKDAY_CRONS = List.of(
            new WeekdayCron("0 0 0 LW * ?", d -> lastWeekday(d), t -> at(t, 0, 0)),
            new WeekdayCron("0 0 3 15W * ?", d -> nearestWeekday(d, 15), t -> at(t, 3, 0)),
            new WeekdayCron("15,45 0 3 1W JAN,JUN,DEC ?",
                    d -> Set.of(1, 6, 12).contains(d.getMonthValue()) && nearestWeekday(d, 1), t -> at(t, 3, 0),
                    15, 45),
            new WeekdayCron("0 0,30 9-10 15W * ?", d -> nearestWeekday(d, 15),
                    t -> (t.getHour() == 9 || t.getHour() == 10) && t.getMinute() % 30 == 0),
            new WeekdayCron("0 30 2 1W,L-2W * ?",
                    d -> nearestWeekday(d, 1) || nearestWeekday(d, d.lengthOfMonth() - 2), t -> at(t, 2, 30)),
            new WeekdayCron("0 0 * LW * ?", d -> lastWeekday(d), t -> t.getMinute() == 0),
            new WeekdayCron("0 0 1 1W,15 * ? 2026-2029",
                    d -> d.getYear() <= 2029 && (d.getDayOfMonth() == 15 || nearestWeekday(d, 1)), t -> at(t, 1, 0)),
            new WeekdayCron("0 0 12 31W * ?", d -> nearestWeekday(d, 31), t -> at(t, 12, 0)));
    private static final List<SweepCron> CRONS = WEEKDAY_CRONS.stream().map(WeekdayCron::cron).toList();
    /** The crons of the sweep of every zone: midnight, early morning, the small hours, every hour. */
    private static final List<SweepCron> SWEEP_CRONS = List.of(CRONS.get(0), CRONS.get(1), CRONS.get(4), CRONS.get(5));

    private static Map<SweepCron, SweepCron.WallClockTimes> wallClock;

    @BeforeAll
    static void walkTheWallClock() {
        LocalDate start = LocalDate.ofInstant(FROM.minus(EDGE), ZoneOffset.UTC);
        LocalDate end = LocalDate.ofInstant(TO.plus(EDGE), ZoneOffset.UTC);
        wallClock = WEEKDAY_CRONS.stream()
                .collect(Collectors.toMap(WeekdayCron::cron, cron -> cron.wallClockTimes(start, end)));
    }

    @TestFactory
    Stream<DynamicTest> nearestWeekdaysFireAsTheReferenceSaysFromAnyStart() {
        return FULL_ZONES.stream().flatMap(id -> CRONS.stream().map(cron -> dynamicTest(id + " " + cron, () -> {
            ZoneRules rules = ZoneId.of(id).getRules();
            List<String> differences = new ArrayList<>();
            // without a transition the policy has nothing to act on
            for (DstPolicy policy : rules.isFixedOffset() ? POLICIES.subList(0, 1) : POLICIES) {
                differences.addAll(inFull(ZoneId.of(id), rules, cron, policy));
            }
            assertThat(differences)
                    .withFailMessage(() -> Disagreements.report(id + " disagrees with the reference", differences))
                    .isEmpty();
        })));
    }

    @TestFactory
    Stream<DynamicTest> everyZoneFiresNearestWeekdaysAsTheReferenceSays() {
        Map<Behaviour, List<String>> zones = ZoneId.getAvailableZoneIds().stream().sorted()
                .collect(groupingBy(id -> Behaviour.of(ZoneId.of(id).getRules()), LinkedHashMap::new, toList()));
        Map<String, List<String>> checked = zones.values().parallelStream().map(ids -> ids.get(0))
                .collect(Collectors.toConcurrentMap(Function.identity(), TimetableNearestWeekdaySweepTest::swept));
        return zones.values().stream().map(ids -> dynamicTest(ids.get(0) + " (" + ids.size() + " ids)", () -> {
            List<String> differences = checked.get(ids.get(0));
            assertThat(differences)
                    .withFailMessage(() -> Disagreements.report(ids.get(0) + " (standing for " + ids
                            + ") disagrees with the reference", differences))
                    .isEmpty();
        }));
    }

    private static List<String> inFull(ZoneId zone, ZoneRules rules, SweepCron cron, DstPolicy policy) {
        Timetable model = Timetable.of(cron.schedule(zone, policy));
        ReferenceTimetable reference = new ReferenceTimetable(rules, cron, wallClock.get(cron), policy, FROM, TO);
        List<ScheduledInstant> listed = reference.between(FROM, TO, UNLIMITED);
        Random random = new Random(cron.expression().hashCode() * 31L + zone.getId().hashCode());
        List<String> differences = new ArrayList<>();
        Check check = new Check(differences, zone, cron, policy);
        check.add(() -> Disagreements.inSequence(model, reference, FROM, TO));
        check.add(() -> Disagreements.inNext(model, reference, startingPoints(zone, rules, listed, random)));
        check.add(() -> Disagreements.inLatest(model, reference, latestPoints(listed, random)));
        check.add(() -> Disagreements.inBetween(model, reference, FROM, TO, UNLIMITED));
        for (int limit : new int[] {1, 2, 7}) {
            check.add(() -> Disagreements.inBetween(model, reference, FROM, TO, limit));
        }
        for (ScheduledInstant instant : sample(listed, 20, random)) {
            Instant start = instant.at();
            Instant end = min(start.plus(Duration.ofDays(3)), TO);
            check.add(() -> Disagreements.inBetween(model, reference, start, end, UNLIMITED));
        }
        for (YearMonth month = YearMonth.of(2026, 1); month.isBefore(YearMonth.of(2031, 1)); month = month.plusMonths(1)) {
            Instant start = max(month.atDay(1).atStartOfDay(zone).toInstant(), FROM);
            Instant end = min(month.plusMonths(1).atDay(1).atStartOfDay(zone).toInstant(), TO);
            check.add(() -> Disagreements.inBetween(model, reference, start, end, UNLIMITED));
        }
        return differences;
    }

    private static List<String> swept(String id) {
        ZoneId zone = ZoneId.of(id);
        ZoneRules rules = zone.getRules();
        List<ZoneOffsetTransition> transitions = ZoneSweep.transitions(rules, FROM, TO);
        List<String> differences = new ArrayList<>();
        for (SweepCron cron : SWEEP_CRONS) {
            for (DstPolicy policy : transitions.isEmpty() ? SWEEP_POLICIES.subList(0, 1) : SWEEP_POLICIES) {
                Timetable model = Timetable.of(cron.schedule(zone, policy));
                ReferenceTimetable reference = new ReferenceTimetable(rules, cron, wallClock.get(cron), policy, FROM, TO);
                Random random = new Random(cron.expression().hashCode() * 31L + id.hashCode());
                TreeSet<Instant> points = new TreeSet<>(randomPoints(random, 30));
                Check check = new Check(differences, zone, cron, policy);
                if (!cron.elapsedTime()) {
                    check.add(() -> Disagreements.inSequence(model, reference, FROM, TO));
                    check.add(() -> Disagreements.inBetween(model, reference, FROM, TO, UNLIMITED));
                }
                for (ZoneOffsetTransition transition : transitions) {
                    points.addAll(acrossTransition(transition));
                    // an hourly cron fires 24 times on each of its days: followed only where the clocks change
                    Instant start = max(transition.getInstant().minus(Duration.ofDays(3)), FROM);
                    Instant end = min(transition.getInstant().plus(Duration.ofDays(3)), TO);
                    if (cron.elapsedTime()) {
                        check.add(() -> Disagreements.inSequence(model, reference, start, end));
                        check.add(() -> Disagreements.inBetween(model, reference, start, end, UNLIMITED));
                    }
                }
                check.add(() -> Disagreements.inNext(model, reference, points));
            }
        }
        return differences;
    }

    /**
     * @return around each listed instant, a nanosecond, a millisecond and a second before it, the
     *     instant and a millisecond after it, and local midnight and noon from two days before its
     *     day to the day after; points across every transition; random instants
     */
    private static List<Instant> startingPoints(ZoneId zone, ZoneRules rules, List<ScheduledInstant> listed,
            Random random) {
        TreeSet<Instant> points = new TreeSet<>();
        TreeSet<LocalDate> days = new TreeSet<>();
        for (ScheduledInstant instant : sample(listed, 100, random)) {
            Instant at = instant.at();
            points.addAll(List.of(at.minusNanos(1), at.minusMillis(1), at.minusSeconds(1), at, at.plusMillis(1)));
        }
        for (ScheduledInstant instant : sample(listed, 60, random)) {
            LocalDate day = instant.at().atZone(zone).toLocalDate();
            for (int d = -2; d <= 0; d++) {
                days.add(day.plusDays(d));
            }
        }
        for (LocalDate day : days) {
            points.add(ZonedDateTime.of(day, LocalTime.MIDNIGHT, zone).toInstant());
            points.add(ZonedDateTime.of(day, LocalTime.NOON, zone).toInstant());
        }
        for (ZoneOffsetTransition transition : ZoneSweep.transitions(rules, FROM, TO)) {
            points.addAll(acrossTransition(transition));
        }
        points.addAll(randomPoints(random, 150));
        return points.stream().filter(p -> !p.isBefore(FROM.minusNanos(1)) && p.isBefore(TO)).toList();
    }

    /** @return instants 433 s apart from an hour more than the clocks' change before the transition to as long after */
    private static List<Instant> acrossTransition(ZoneOffsetTransition transition) {
        Duration span = transition.getDuration().abs().plusHours(1);
        List<Instant> points = new ArrayList<>();
        for (Instant p = transition.getInstant().minus(span); p.isBefore(transition.getInstant().plus(span));
             p = p.plusSeconds(POINT_STEP_SECONDS)) {
            if (!p.isBefore(FROM) && p.isBefore(TO)) {
                points.add(p);
            }
        }
        if (!transition.getInstant().isBefore(FROM.plusNanos(1)) && transition.getInstant().isBefore(TO)) {
            points.add(transition.getInstant().minusNanos(1));
            points.add(transition.getInstant());
        }
        return points;
    }

    private static List<Instant> latestPoints(List<ScheduledInstant> listed, Random random) {
        TreeSet<Instant> points = new TreeSet<>(randomPoints(random, 20));
        for (ScheduledInstant instant : sample(listed, 30, random)) {
            points.add(instant.at());
            points.add(instant.at().minusNanos(1));
        }
        // the reference knows nothing before its range: latestAtOrBefore looks back up to 800 days
        return points.stream().filter(p -> !p.isBefore(FROM)).toList();
    }

    private static List<Instant> randomPoints(Random random, int count) {
        long seconds = TO.getEpochSecond() - FROM.getEpochSecond();
        List<Instant> points = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            points.add(FROM.plusSeconds((long) (random.nextDouble() * seconds)).plusNanos(random.nextInt(1_000_000_000)));
        }
        return points;
    }

    private static <T> List<T> sample(List<T> all, int count, Random random) {
        if (all.size() <= count) {
            return all;
        }
        List<T> sample = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sample.add(all.get(random.nextInt(all.size())));
        }
        return sample;
    }

    private static boolean at(LocalTime t, int hour, int minute) {
        return t.getHour() == hour && t.getMinute() == minute;
    }

    /** @return whether {@code date} is, of all the weekdays of its month, the one nearest day {@code day} */
    private static boolean nearestWeekday(LocalDate date, int day) {
        YearMonth month = YearMonth.from(date);
        if (day < 1 || day > month.lengthOfMonth()) {
            return false;
        }
        LocalDate nearest = null;
        for (LocalDate candidate = month.atDay(1); YearMonth.from(candidate).equals(month);
             candidate = candidate.plusDays(1)) {
            if (weekday(candidate) && (nearest == null
                    || Math.abs(candidate.getDayOfMonth() - day) < Math.abs(nearest.getDayOfMonth() - day))) {
                nearest = candidate;
            }
        }
        return date.equals(nearest);
    }

    private static boolean lastWeekday(LocalDate date) {
        LocalDate last = YearMonth.from(date).atEndOfMonth();
        while (!weekday(last)) {
            last = last.minusDays(1);
        }
        return date.equals(last);
    }

    private static boolean weekday(LocalDate date) {
        return date.getDayOfWeek() != DayOfWeek.SATURDAY && date.getDayOfWeek() != DayOfWeek.SUNDAY;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /**
     * A cron with {@code W} written out by hand: which days it fires on, which minutes of those days,
     * at which seconds of those minutes.
     */
    private record WeekdayCron(SweepCron cron, Predicate<LocalDate> days, Predicate<LocalTime> minutes) {

        WeekdayCron(String expression, Predicate<LocalDate> days, Predicate<LocalTime> minutes, int... seconds) {
            this(sweepCron(expression, days, minutes, seconds), days, minutes);
        }

        private static SweepCron sweepCron(String expression, Predicate<LocalDate> days, Predicate<LocalTime> minutes,
                int... seconds) {
            SweepCron cron = SweepCron.of(expression, t -> days.test(t.toLocalDate()) && minutes.test(t.toLocalTime()));
            cron = seconds.length == 0 ? cron : cron.atSeconds(seconds);
            // the hour field takes every value
            return expression.split(" ")[2].equals("*") ? cron.countingElapsedTime() : cron;
        }

        /**
         * Walks the wall clock day by day and, on the days the cron fires, minute by minute: what
         * {@link SweepCron#wallClockTimes} finds, without asking every minute of the days it does not.
         *
         * @return the wall-clock times from the start of {@code from} to the start of {@code to}
         */
        SweepCron.WallClockTimes wallClockTimes(LocalDate from, LocalDate to) {
            List<Long> times = new ArrayList<>();
            for (LocalDate day = from; day.isBefore(to); day = day.plusDays(1)) {
                if (!days.test(day)) {
                    continue;
                }
                for (int minute = 0; minute < 1440; minute++) {
                    if (minutes.test(LocalTime.of(minute / 60, minute % 60))) {
                        for (int second : cron.seconds()) {
                            times.add(day.toEpochDay() * 86_400 + minute * 60L + second);
                        }
                    }
                }
            }
            return new SweepCron.WallClockTimes(from.toEpochDay() * 86_400, to.toEpochDay() * 86_400,
                    times.stream().mapToLong(Long::longValue).toArray());
        }
    }

    /** Collects the first difference of each question, naming the zone, the cron and the policy. */
    private record Check(List<String> differences, ZoneId zone, SweepCron cron, DstPolicy policy) {

        void add(Supplier<String> question) {
            String difference;
            try {
                difference = question.get();
            } catch (RuntimeException e) {
                difference = "failed: " + e;
            }
            if (difference != null) {
                differences.add(zone.getId() + ", cron " + cron + ", " + policy + ": " + difference);
            }
        }
    }

    /** What a zone's rules do around the five years: two zones with the same behaviour fire alike in them. */
    private record Behaviour(ZoneOffset offset, List<ZoneOffsetTransition> transitions) {

        static Behaviour of(ZoneRules rules) {
            Instant start = FROM.minus(EDGE);
            return new Behaviour(rules.getOffset(start), ZoneSweep.transitions(rules, start, TO.plus(EDGE)));
        }
    }
}
