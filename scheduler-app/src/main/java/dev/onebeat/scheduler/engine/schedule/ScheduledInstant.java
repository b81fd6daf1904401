package dev.onebeat.scheduler.engine.schedule;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * One instant of a schedule, with the wall-clock time it stands for and the rule that placed it.
 *
 * @param at the instant; for a {@link Kind#GAP_SKIPPED} time, where it would have fired under {@code shift}
 * @param local the wall-clock time the schedule's fields matched (for a time in a gap, one that never
 *     appears on the zone's clocks)
 * @param offset the zone's offset at {@code at}
 * @param kind how daylight saving affected it
 * @param rule the part of the policy that applied ({@code gap=shift}, {@code overlap=both}, {@code elapsed
 *     time} …), null for a {@link Kind#REGULAR} instant
 */
public record ScheduledInstant(Instant at, LocalDateTime local, ZoneOffset offset, Kind kind, String rule) {

    /** Rejects null parts; only a regular instant has no rule. */
    public ScheduledInstant {
        Objects.requireNonNull(at, "at must not be null");
        Objects.requireNonNull(local, "local must not be null");
        Objects.requireNonNull(offset, "offset must not be null");
        Objects.requireNonNull(kind, "kind must not be null");
        if ((rule == null) != (kind == Kind.REGULAR)) {
            throw new IllegalArgumentException(rule == null ? "a " + kind + " instant needs a rule"
                    : "a REGULAR instant has no rule, was '" + rule + "'");
        }
    }

    static ScheduledInstant regular(Instant at, LocalDateTime local, ZoneOffset offset) {
        return new ScheduledInstant(at, local, offset, Kind.REGULAR, null);
    }

    /** @return whether a fire happens at {@link #at}; false only for a time skipped in a gap */
    public boolean fires() {
        return kind != Kind.GAP_SKIPPED;
    }

    /** @return the instant in the zone's local time with its offset ({@code 2027-03-28T03:30+02:00}) */
    public OffsetDateTime localAt() {
        return at.atOffset(offset);
    }

    /**
     * @return for an operator: what happened to this wall-clock time ({@code 02:30 does not exist
     *         (clocks jump forward): shifted to 03:30+02:00 (gap=shift)}), null for a regular instant
     */
    public String note() {
        String time = local.toLocalTime().toString();
        return switch (kind) {
            case REGULAR -> null;
            case GAP_SHIFTED -> time + " does not exist (clocks jump forward): shifted to "
                    + localAt().toLocalTime() + offset + " (" + rule + ")";
            case GAP_SKIPPED -> time + " does not exist (clocks jump forward): skipped (" + rule + ")";
            case OVERLAP_FIRST -> time + " happens twice (clocks go back): the first, at " + offset + " (" + rule + ")";
            case OVERLAP_SECOND -> time + " happens twice (clocks go back): the second, at " + offset + " (" + rule
                    + ")";
        };
    }

    /** How a wall-clock time of the schedule became this instant. */
    public enum Kind {
        /** The time happens exactly once. */
        REGULAR,
        /** The time falls in a gap and fires later by the gap's length. */
        GAP_SHIFTED,
        /** The time falls in a gap and does not fire. */
        GAP_SKIPPED,
        /** The first of the two occurrences of a time in an overlap. */
        OVERLAP_FIRST,
        /** The second of the two occurrences of a time in an overlap. */
        OVERLAP_SECOND
    }
}
