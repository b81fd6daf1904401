package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.DstPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The sweep's checks of one zone over one stretch of time, each answered by the model (built with
 * the zone's id) and by a {@link ReferenceTimetable} (built with the zone's rules).
 */
final class ZoneSweep {

    /** The reference around a window: the cron's next instant after it is at most a week away. */
    private static final Duration REFERENCE_MARGIN = Duration.ofDays(8);
    private static final Duration WINDOW = Duration.ofDays(2);
    private static final Duration AROUND = Duration.ofHours(1);
    /** Not a divisor of any cron's period, so the starting points fall on every phase of it. */
    private static final long POINT_STEP_SECONDS = 433;
    /** {@code latestAtOrBefore} costs several {@code next}: asked about every 65 minutes. */
    private static final long LATEST_STEP_SECONDS = 9 * POINT_STEP_SECONDS;
    private static final int UNLIMITED = 100_000;
    private static final List<Instant> QUIET_CANDIDATES = List.of("2027-01-20T10:07:00Z", "2027-07-20T10:07:00Z",
            "2028-01-20T10:07:00Z", "2028-07-20T10:07:00Z", "2027-05-11T10:07:00Z", "2028-11-11T10:07:00Z")
            .stream().map(Instant::parse).toList();

    private final ZoneId zone;
    private final ZoneRules rules;
    private final Instant from;
    private final Instant to;
    private final List<ZoneOffsetTransition> transitions;

    /**
     * @param from first instant swept, a whole second
     * @param to end of the sweep, exclusive, a whole second
     */
    ZoneSweep(ZoneId zone, Instant from, Instant to) {
        this.zone = zone;
        this.rules = zone.getRules();
        this.from = from;
        this.to = to;
        this.transitions = transitions(rules, from, to);
    }

    /** @return the zone's transitions in {@code [from, to)} */
    static List<ZoneOffsetTransition> transitions(ZoneRules rules, Instant from, Instant to) {
        List<ZoneOffsetTransition> found = new ArrayList<>();
        for (ZoneOffsetTransition t = rules.nextTransition(from.minusNanos(1)); t != null
                && t.getInstant().isBefore(to); t = rules.nextTransition(t.getInstant())) {
            found.add(t);
        }
        return found;
    }

    /** @return whether the zone changes its offset in the sweep */
    boolean hasTransitions() {
        return !transitions.isEmpty();
    }

    /**
     * Follows {@code next} through the whole sweep, and asks the questions of
     * {@link #aroundTransition} at every transition, {@code between} over two days either side of it.
     */
    List<String> inFull(SweepCron cron, SweepCron.WallClockTimes times, DstPolicy policy) {
        Timetable model = Timetable.of(cron.schedule(zone, policy));
        ReferenceTimetable reference = reference(cron, times, policy, from, to);
        List<String> differences = new ArrayList<>();
        add(differences, cron, policy, () -> Disagreements.inSequence(model, reference, from, to));
        for (ZoneOffsetTransition transition : transitions) {
            aroundTransition(differences, cron, policy, model, reference, transition, WINDOW);
        }
        return differences;
    }

    /**
     * Follows {@code next} over two days either side of every transition, and asks the questions of
     * {@link #aroundTransition} there, {@code between} over the transition's own span.
     */
    List<String> aroundTransitions(SweepCron cron, SweepCron.WallClockTimes times, DstPolicy policy) {
        Timetable model = Timetable.of(cron.schedule(zone, policy));
        List<String> differences = new ArrayList<>();
        for (ZoneOffsetTransition transition : transitions) {
            Instant at = transition.getInstant();
            ReferenceTimetable reference = reference(cron, times, policy, at, at);
            add(differences, cron, policy,
                    () -> Disagreements.inSequence(model, reference, at.minus(WINDOW), at.plus(WINDOW)));
            aroundTransition(differences, cron, policy, model, reference, transition, span(transition));
        }
        return differences;
    }

    /** Follows {@code next} and asks {@code between} over two windows of four days without a transition. */
    List<String> quietly(SweepCron cron, SweepCron.WallClockTimes times, DstPolicy policy) {
        Timetable model = Timetable.of(cron.schedule(zone, policy));
        List<String> differences = new ArrayList<>();
        for (Instant quiet : quietInstants()) {
            ReferenceTimetable reference = reference(cron, times, policy, quiet, quiet);
            Instant start = quiet.minus(WINDOW);
            Instant end = quiet.plus(WINDOW);
            add(differences, cron, policy, () -> Disagreements.inSequence(model, reference, start, end));
            add(differences, cron, policy, () -> Disagreements.inBetween(model, reference, start, end, UNLIMITED));
        }
        return differences;
    }

    /**
     * Asks {@code between} over each transition's span, or over the first six hours of the sweep when
     * there is no transition: a short check of a model built with this zone's own id, for a zone whose
     * rules another zone's full check covers.
     */
    List<String> briefly(SweepCron cron, SweepCron.WallClockTimes times, DstPolicy policy) {
        Timetable model = Timetable.of(cron.schedule(zone, policy));
        List<String> differences = new ArrayList<>();
        for (ZoneOffsetTransition transition : transitions) {
            Instant start = transition.getInstant().minus(span(transition));
            Instant end = transition.getInstant().plus(span(transition));
            ReferenceTimetable reference = new ReferenceTimetable(rules, cron, times, policy, start, end);
            add(differences, cron, policy, () -> Disagreements.inBetween(model, reference, start, end, UNLIMITED));
        }
        if (transitions.isEmpty()) {
            Instant end = from.plus(Duration.ofHours(6));
            ReferenceTimetable reference = new ReferenceTimetable(rules, cron, times, policy, from, end);
            add(differences, cron, policy, () -> Disagreements.inBetween(model, reference, from, end, UNLIMITED));
        }
        return differences;
    }

    /**
     * Asks, around one transition: {@code next} from starting points across its span (see
     * {@link #startingPoints}); {@code latestAtOrBefore} from points about 65 minutes apart across it;
     * {@code between} over {@code half} either side of it, unlimited and cut just after the
     * transition, and over its span from the transition on.
     */
    private void aroundTransition(List<String> differences, SweepCron cron, DstPolicy policy, Timetable model,
            ReferenceTimetable reference, ZoneOffsetTransition transition, Duration half) {
        Instant at = transition.getInstant();
        Duration span = span(transition);
        add(differences, cron, policy,
                () -> Disagreements.inNext(model, reference, startingPoints(reference, at.minus(span), at.plus(span))));
        add(differences, cron, policy, () -> Disagreements.inLatest(model, reference,
                evenlySpaced(at.minus(span), at.plus(span), LATEST_STEP_SECONDS)));
        Instant start = at.minus(half);
        Instant end = at.plus(half);
        add(differences, cron, policy, () -> Disagreements.inBetween(model, reference, start, end, UNLIMITED));
        add(differences, cron, policy, () -> Disagreements.inBetween(model, reference, at, at.plus(span), UNLIMITED));
        // cut just after the transition, where skipped times are merged into the list
        int beforeTransition = reference.between(start, at, UNLIMITED).size();
        add(differences, cron, policy,
                () -> Disagreements.inBetween(model, reference, start, end, beforeTransition + 1));
    }

    /** @return the time the transition moves the clocks by, and an hour more */
    private static Duration span(ZoneOffsetTransition transition) {
        return transition.getDuration().abs().plus(AROUND);
    }

    /**
     * @return instants every 433 seconds across {@code [start, end)}, and a nanosecond before each instant
     *     the reference lists there, firing or skipped
     */
    private static List<Instant> startingPoints(ReferenceTimetable reference, Instant start, Instant end) {
        TreeSet<Instant> points = new TreeSet<>(evenlySpaced(start, end, POINT_STEP_SECONDS));
        for (ScheduledInstant listed : reference.between(start, end, UNLIMITED)) {
            // from just before it the instant itself is the answer; from the instant exactly, the sequence asks
            points.add(listed.at().minusNanos(1));
        }
        return List.copyOf(points);
    }

    private static List<Instant> evenlySpaced(Instant start, Instant end, long stepSeconds) {
        List<Instant> points = new ArrayList<>();
        for (Instant point = start; point.isBefore(end); point = point.plusSeconds(stepSeconds)) {
            points.add(point);
        }
        return points;
    }

    /** @return up to two instants with no transition within three days */
    private List<Instant> quietInstants() {
        return QUIET_CANDIDATES.stream()
                .filter(c -> transitions(rules, c.minus(Duration.ofDays(3)), c.plus(Duration.ofDays(3))).isEmpty())
                .limit(2)
                .toList();
    }

    private ReferenceTimetable reference(SweepCron cron, SweepCron.WallClockTimes times, DstPolicy policy,
            Instant start, Instant end) {
        return new ReferenceTimetable(rules, cron, times, policy, start.minus(REFERENCE_MARGIN),
                end.plus(REFERENCE_MARGIN));
    }

    private void add(List<String> differences, SweepCron cron, DstPolicy policy, Supplier<String> check) {
        String difference;
        try {
            difference = check.get();
        } catch (RuntimeException e) {
            difference = "failed: " + e;
        }
        if (difference != null) {
            differences.add(zone.getId() + ", cron " + cron + ", " + policy + ": " + difference);
        }
    }
}
