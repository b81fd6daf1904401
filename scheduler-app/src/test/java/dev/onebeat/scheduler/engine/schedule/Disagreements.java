package dev.onebeat.scheduler.engine.schedule;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Puts the same questions to the model and to the {@link ReferenceTimetable} and describes the first
 * answer on which they differ, with both sides; null when they agree. Instants are compared whole:
 * instant, wall-clock time, offset, kind and rule.
 */
final class Disagreements {

    private Disagreements() {
    }

    /**
     * Follows {@code next} from a nanosecond before {@code start}, each time from the previous instant,
     * up to and including the first instant at or after {@code end}.
     */
    static String inSequence(Timetable model, ReferenceTimetable reference, Instant start, Instant end) {
        Instant after = start.minusNanos(1);
        while (true) {
            ScheduledInstant expected = reference.next(after);
            String difference = inNext(model, reference, after, expected);
            if (difference != null || expected == null || !expected.at().isBefore(end)) {
                return difference;
            }
            after = expected.at();
        }
    }

    /** Asks {@code next} from each of {@code afters}. */
    static String inNext(Timetable model, ReferenceTimetable reference, Collection<Instant> afters) {
        for (Instant after : afters) {
            String difference = inNext(model, reference, after, reference.next(after));
            if (difference != null) {
                return difference;
            }
        }
        return null;
    }

    private static String inNext(Timetable model, ReferenceTimetable reference, Instant after,
            ScheduledInstant expected) {
        ScheduledInstant actual = model.next(after);
        boolean agree = expected == null
                // the reference knows nothing from its end on: the model must not fire before it
                ? actual == null || !actual.at().isBefore(reference.end())
                : expected.equals(actual);
        return agree ? null : differs("next after " + after, actual,
                expected == null ? "none before " + reference.end() : describe(expected));
    }

    /** Asks {@code latestAtOrBefore} at each of {@code ats}. */
    static String inLatest(Timetable model, ReferenceTimetable reference, Collection<Instant> ats) {
        for (Instant at : ats) {
            ScheduledInstant expected = reference.latestAtOrBefore(at);
            Instant actual = model.latestAtOrBefore(at);
            boolean agree = expected == null
                    // the reference knows nothing before its start: the model must not answer after it
                    ? actual == null || actual.isBefore(reference.start())
                    : expected.at().equals(actual);
            if (!agree) {
                return "latestAtOrBefore " + at + ": model " + actual + ", reference "
                        + (expected == null ? "none since " + reference.start() : expected.at());
            }
        }
        return null;
    }

    /** Asks {@code between(start, end, limit)}. */
    static String inBetween(Timetable model, ReferenceTimetable reference, Instant start, Instant end, int limit) {
        List<ScheduledInstant> expected = reference.between(start, end, limit);
        List<ScheduledInstant> actual = model.between(start, end, limit);
        String question = "between(" + start + ", " + end + ", " + limit + ")";
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            ScheduledInstant expectedOne = i < expected.size() ? expected.get(i) : null;
            ScheduledInstant actualOne = i < actual.size() ? actual.get(i) : null;
            if (!Objects.equals(expectedOne, actualOne)) {
                return differs(question + " entry " + i, actualOne,
                        expectedOne == null ? "no entry " + i : describe(expectedOne));
            }
        }
        return null;
    }

    /** @return the heading, then the first twenty differences, which say the most, one a line */
    static String report(String heading, List<String> differences) {
        int shown = Math.min(20, differences.size());
        return heading + ":\n" + String.join("\n", differences.subList(0, shown))
                + (differences.size() > shown ? "\n... and " + (differences.size() - shown) + " more" : "");
    }

    static String describe(ScheduledInstant instant) {
        if (instant == null) {
            return "none";
        }
        return instant.at() + " " + instant.kind() + " (" + instant.local() + " at " + instant.offset()
                + (instant.rule() == null ? "" : ", " + instant.rule()) + ")";
    }

    private static String differs(String question, ScheduledInstant actual, String expected) {
        return question + ": model " + describe(actual) + ", reference " + expected;
    }
}
