package dev.onebeat.job;

import java.util.Locale;
import java.util.Objects;

/**
 * What a cron schedule does with wall-clock times that daylight saving (or any other change of a
 * zone's offset) makes impossible or ambiguous.
 *
 * <ul>
 *   <li>In a <b>gap</b> the clocks jump forward: in Europe/Paris on 28 March 2027, 02:00 to 02:59
 *       never happen. {@link Gap#SHIFT} (the default) fires such a time later by the gap's length, as
 *       {@code java.time} resolves it (02:30 fires at 03:30+02:00); {@link Gap#SKIP} does not fire it,
 *       and onebeat records the instant as skipped.</li>
 *   <li>In an <b>overlap</b> the clocks go back: on 31 October 2027, 02:00 to 02:59 happen twice in
 *       Paris, first at +02:00, then at +01:00. {@link Overlap#FIRST} (the default) fires the first,
 *       {@link Overlap#LAST} the second, {@link Overlap#BOTH} both.</li>
 * </ul>
 *
 * <p>A cron whose minute or hour field covers every value ({@code *}, {@code *}{@code /1}, {@code 0-59},
 * as in {@code *}{@code /15 * * * *} or {@code 0 * * * *}) follows elapsed time instead: it fires in both
 * occurrences of an overlap and its times inside a gap become the instants real time reaches, so
 * every quarter of an hour of real time keeps its fire and the policy never thins it. Intervals
 * ({@link Schedule#every}) count seconds since the epoch and have neither gaps nor overlaps.
 *
 * @param gap what a wall-clock time that does not exist does
 * @param overlap what a wall-clock time that happens twice does
 */
public record DstPolicy(Gap gap, Overlap overlap) {

    /** Shift times in a gap, fire the first of two occurrences. */
    public static final DstPolicy DEFAULT = new DstPolicy(Gap.SHIFT, Overlap.FIRST);

    /** Rejects null parts. */
    public DstPolicy {
        Objects.requireNonNull(gap, "gap must not be null");
        Objects.requireNonNull(overlap, "overlap must not be null");
    }

    /**
     * @param gap what a time in a gap does
     * @return this policy with that gap rule
     */
    public DstPolicy withGap(Gap gap) {
        return new DstPolicy(gap, overlap);
    }

    /**
     * @param overlap what a time in an overlap does
     * @return this policy with that overlap rule
     */
    public DstPolicy withOverlap(Overlap overlap) {
        return new DstPolicy(gap, overlap);
    }

    /** @return {@code gap=shift overlap=first}, the form schedules are described with */
    @Override
    public String toString() {
        return "gap=" + gap.text() + " overlap=" + overlap.text();
    }

    /** A wall-clock time that does not exist (clocks jump forward over it). */
    public enum Gap {
        /** Fire later by the gap's length: 02:30 in a one-hour gap fires at 03:30 of the new offset. */
        SHIFT,
        /** Do not fire; the instant is recorded as skipped. */
        SKIP;

        /** @return the lower-case name used in configuration and descriptions ({@code shift}) */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param text {@code shift} or {@code skip}, any case
         * @return the rule
         * @throws IllegalArgumentException naming the value and the accepted ones
         */
        public static Gap parse(String text) {
            for (Gap gap : values()) {
                if (gap.text().equalsIgnoreCase(text == null ? "" : text.trim())) {
                    return gap;
                }
            }
            throw new IllegalArgumentException("'" + text + "' is not one of shift, skip");
        }
    }

    /** A wall-clock time that happens twice (clocks go back over it). */
    public enum Overlap {
        /** Fire at the first occurrence, under the offset before the change. */
        FIRST,
        /** Fire at the second occurrence, under the offset after the change. */
        LAST,
        /** Fire at both occurrences. */
        BOTH;

        /** @return the lower-case name used in configuration and descriptions ({@code first}) */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param text {@code first}, {@code last} or {@code both}, any case
         * @return the rule
         * @throws IllegalArgumentException naming the value and the accepted ones
         */
        public static Overlap parse(String text) {
            for (Overlap overlap : values()) {
                if (overlap.text().equalsIgnoreCase(text == null ? "" : text.trim())) {
                    return overlap;
                }
            }
            throw new IllegalArgumentException("'" + text + "' is not one of first, last, both");
        }
    }
}
