package dev.onebeat.scheduler.engine.schedule;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant.Kind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A cron's instants in a zone, computed the slow and obvious way, to check {@link CronTimetable} against.
 *
 * <p>Every wall-clock time the cron matches (from {@link SweepCron}'s hand-written predicate, not from
 * Quartz) is resolved on its own with {@link ZoneRules#getValidOffsets}, following the model's rules
 * word for word: one valid offset fires at that offset ({@code REGULAR}); none, a gap, fires under
 * {@code shift} at the offset before the transition ({@code GAP_SHIFTED}) and is listed under
 * {@code skip} at that same instant ({@code GAP_SKIPPED}) unless something fires there; two, an
 * overlap, give a first occurrence at the larger offset and a second at the smaller one, kept as the
 * overlap rule says. An elapsed-time cron is resolved as {@code gap=shift overlap=both} whatever its
 * policy. Times that land on one instant fire once, as {@code REGULAR} if one of them is regular,
 * else as the earliest wall-clock time of them.
 *
 * <p>It knows the instants in the range it was built for and nothing else: a question whose answer
 * could lie outside that range fails rather than guesses.
 */
final class ReferenceTimetable {

    /**
     * How far beyond the range the wall clock is walked: an instant is its wall-clock time minus an
     * offset (the valid one, or the one before a gap), and no offset exceeds 18 hours.
     */
    private static final long MARGIN_SECONDS = 86_400;

    private final Instant from;
    private final Instant to;
    private final long[] firingSeconds;
    private final List<ScheduledInstant> firing;
    private final List<ScheduledInstant> entries;

    /**
     * @param times the cron's wall-clock times, walked at least a day beyond each end of the range
     * @param from first instant of the range, a whole second
     * @param to end of the range, exclusive, a whole second
     */
    ReferenceTimetable(ZoneRules rules, SweepCron cron, SweepCron.WallClockTimes times, DstPolicy policy,
            Instant from, Instant to) {
        if (from.getNano() != 0 || to.getNano() != 0) {
            throw new IllegalArgumentException("the range [" + from + ", " + to + ") must be whole seconds");
        }
        this.from = from;
        this.to = to;
        DstPolicy applied = cron.elapsedTime() ? new DstPolicy(DstPolicy.Gap.SHIFT, DstPolicy.Overlap.BOTH) : policy;
        List<Candidate> fires = new ArrayList<>();
        List<Candidate> skipped = new ArrayList<>();
        for (long time : times.within(from.getEpochSecond() - MARGIN_SECONDS, to.getEpochSecond() + MARGIN_SECONDS)) {
            resolve(rules, time, applied, fires, skipped);
        }
        List<Candidate> firesOnce = onePerInstant(fires);
        this.firing = firesOnce.stream().filter(this::inRange)
                .map(fire -> fire.instant(rules, rule(fire.kind(), applied, cron.elapsedTime())))
                .toList();
        this.firingSeconds = firing.stream().mapToLong(fire -> fire.at().getEpochSecond()).toArray();
        List<ScheduledInstant> all = new ArrayList<>(firing);
        long[] fireSeconds = firesOnce.stream().mapToLong(Candidate::at).toArray();
        for (Candidate skip : onePerInstant(skipped)) {
            if (inRange(skip) && Arrays.binarySearch(fireSeconds, skip.at()) < 0) {
                all.add(skip.instant(rules, rule(skip.kind(), applied, cron.elapsedTime())));
            }
        }
        all.sort(Comparator.comparing(ScheduledInstant::at));
        this.entries = List.copyOf(all);
    }

    /** Walks the cron's wall clock around the range itself: for short ranges. */
    static ReferenceTimetable walking(ZoneRules rules, SweepCron cron, DstPolicy policy, Instant from, Instant to) {
        LocalDateTime start = LocalDateTime.ofEpochSecond(from.getEpochSecond() - MARGIN_SECONDS, 0, ZoneOffset.UTC);
        LocalDateTime end = LocalDateTime.ofEpochSecond(to.getEpochSecond() + MARGIN_SECONDS, 0, ZoneOffset.UTC);
        return new ReferenceTimetable(rules, cron, cron.wallClockTimes(start, end), policy, from, to);
    }

    /**
     * @param after an instant no earlier than a nanosecond before the range
     * @return the first firing instant strictly after {@code after}, null if there is none in the range
     */
    ScheduledInstant next(Instant after) {
        if (after.plusNanos(1).isBefore(from)) {
            throw new IllegalArgumentException(after + " is before the reference's range from " + from);
        }
        int index = insertionPoint(after.getEpochSecond() + 1);
        return index == firingSeconds.length ? null : firing.get(index);
    }

    /** @return the end of the range: a null from {@link #next} says nothing about instants from here on */
    Instant end() {
        return to;
    }

    /**
     * @param at an instant before the end of the range
     * @return the latest firing instant at or before {@code at}, null if there is none in the range
     */
    ScheduledInstant latestAtOrBefore(Instant at) {
        if (!at.isBefore(to)) {
            throw new IllegalArgumentException(at + " is not before the reference's range end " + to);
        }
        int index = insertionPoint(at.getEpochSecond() + 1) - 1;
        return index < 0 ? null : firing.get(index);
    }

    /** @return the start of the range: a null from {@link #latestAtOrBefore} says nothing about instants before it */
    Instant start() {
        return from;
    }

    /** @return the firing and skipped instants in {@code [start, end)}, which must lie in the range */
    List<ScheduledInstant> between(Instant start, Instant end, int limit) {
        if (start.isBefore(from) || end.isAfter(to)) {
            throw new IllegalArgumentException("[" + start + ", " + end + ") is not inside [" + from + ", " + to + ")");
        }
        return entries.stream().filter(e -> !e.at().isBefore(start) && e.at().isBefore(end)).limit(limit).toList();
    }

    private static void resolve(ZoneRules rules, long time, DstPolicy policy, List<Candidate> fires,
            List<Candidate> skipped) {
        LocalDateTime local = LocalDateTime.ofEpochSecond(time, 0, ZoneOffset.UTC);
        List<ZoneOffset> offsets = rules.getValidOffsets(local);
        if (offsets.size() == 1) {
            fires.add(new Candidate(time - offsets.get(0).getTotalSeconds(), local, Kind.REGULAR));
        } else if (offsets.isEmpty()) {
            long shifted = time - rules.getTransition(local).getOffsetBefore().getTotalSeconds();
            if (policy.gap() == DstPolicy.Gap.SHIFT) {
                fires.add(new Candidate(shifted, local, Kind.GAP_SHIFTED));
            } else {
                skipped.add(new Candidate(shifted, local, Kind.GAP_SKIPPED));
            }
        } else {
            int earlier = Math.max(offsets.get(0).getTotalSeconds(), offsets.get(1).getTotalSeconds());
            int later = Math.min(offsets.get(0).getTotalSeconds(), offsets.get(1).getTotalSeconds());
            if (policy.overlap() != DstPolicy.Overlap.LAST) {
                fires.add(new Candidate(time - earlier, local, Kind.OVERLAP_FIRST));
            }
            if (policy.overlap() != DstPolicy.Overlap.FIRST) {
                fires.add(new Candidate(time - later, local, Kind.OVERLAP_SECOND));
            }
        }
    }

    /**
     * @param candidates in wall-clock order
     * @return one candidate for each instant, ascending: the regular one if there is one, else the one
     *     of the earliest wall-clock time
     */
    private static List<Candidate> onePerInstant(List<Candidate> candidates) {
        List<Candidate> sorted = new ArrayList<>(candidates);
        // a stable sort: at one instant, the candidates stay in wall-clock order
        sorted.sort(Comparator.comparingLong(Candidate::at));
        List<Candidate> once = new ArrayList<>();
        for (Candidate candidate : sorted) {
            Candidate last = once.isEmpty() ? null : once.get(once.size() - 1);
            if (last == null || last.at() != candidate.at()) {
                once.add(candidate);
            } else if (candidate.kind() == Kind.REGULAR && last.kind() != Kind.REGULAR) {
                once.set(once.size() - 1, candidate);
            }
        }
        return once;
    }

    /** The rule a {@link ScheduledInstant} names, as its Javadoc describes it. */
    private static String rule(Kind kind, DstPolicy policy, boolean elapsedTime) {
        if (kind == Kind.REGULAR) {
            return null;
        }
        if (elapsedTime) {
            return "elapsed time";
        }
        return kind == Kind.GAP_SHIFTED || kind == Kind.GAP_SKIPPED
                ? "gap=" + policy.gap().text()
                : "overlap=" + policy.overlap().text();
    }

    private boolean inRange(Candidate candidate) {
        return candidate.at() >= from.getEpochSecond() && candidate.at() < to.getEpochSecond();
    }

    private int insertionPoint(long second) {
        int index = Arrays.binarySearch(firingSeconds, second);
        return index >= 0 ? index : -index - 1;
    }

    private record Candidate(long at, LocalDateTime local, Kind kind) {

        ScheduledInstant instant(ZoneRules rules, String rule) {
            Instant instant = Instant.ofEpochSecond(at);
            return new ScheduledInstant(instant, local, rules.getOffset(instant), kind, rule);
        }
    }
}
