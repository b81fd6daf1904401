package dev.onebeat.job;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;

/**
 * When a job fires. Every schedule has an IANA time zone in which its wall-clock fields are read.
 *
 * <ul>
 *   <li>{@link #cron(String, ZoneId)}: a Quartz cron expression (6 or 7 fields, seconds first);</li>
 *   <li>{@link #unixCron(String, ZoneId)}: a Unix cron expression (5 fields, as crontab, celery's
 *       {@code crontab()} and Kubernetes CronJobs write it), converted exactly to Quartz;</li>
 *   <li>{@link #every(Duration)}: a fixed interval of whole seconds, aligned to the Unix epoch so
 *       every replica computes the same instants (every 10 s fires at :00, :10, :20 …).</li>
 * </ul>
 *
 * <p>onebeat computes a cron's instants itself, with {@code java.time}'s zone rules: the wall-clock
 * times the fields match, turned into instants by the schedule's {@link DstPolicy} where daylight
 * saving makes a time impossible or ambiguous ({@link Cron#withDst}).
 */
public sealed interface Schedule permits Schedule.Cron, Schedule.Interval {

    /** The zone used when none is given. */
    ZoneId UTC = ZoneId.of("UTC");

    /**
     * @param quartzExpression 6 or 7 fields: second minute hour day-of-month month day-of-week [year]
     * @param zone zone the fields are read in
     * @return the schedule; the expression's full syntax is checked when the job is registered
     */
    static Cron cron(String quartzExpression, ZoneId zone) {
        return new Cron(quartzExpression, zone, quartzExpression);
    }

    /**
     * @param quartzExpression see {@link #cron(String, ZoneId)}; read in UTC
     * @return the schedule
     */
    static Cron cron(String quartzExpression) {
        return cron(quartzExpression, UTC);
    }

    /**
     * @param unixExpression 5 fields: minute hour day-of-month month day-of-week, or a macro such
     *     as {@code @daily}; see {@link UnixCron#toQuartz(String)} for the exact rules
     * @param zone zone the fields are read in
     * @return the schedule, holding the converted Quartz expression and the original text
     * @throws IllegalArgumentException naming the field that is invalid or cannot be converted
     */
    static Cron unixCron(String unixExpression, ZoneId zone) {
        return new Cron(UnixCron.toQuartz(unixExpression), zone, unixExpression);
    }

    /**
     * @param interval whole seconds, at least one
     * @return a UTC-aligned fixed-interval schedule
     */
    static Interval every(Duration interval) {
        return new Interval(interval, UTC);
    }

    /** @return the zone the schedule's fields are read in */
    ZoneId zone();

    /** @return a stable text form; two schedules with the same description fire at the same instants */
    String describe();

    /**
     * A cron schedule, held as a Quartz expression.
     *
     * @param quartzExpression the Quartz expression whose fields say which wall-clock times fire
     * @param zone the zone its fields are read in
     * @param source the expression as the user wrote it (Unix or Quartz), for display
     * @param dst what times that daylight saving skips or repeats do; {@link DstPolicy#DEFAULT} when null
     */
    record Cron(String quartzExpression, ZoneId zone, String source, DstPolicy dst) implements Schedule {
        /**
         * Checks the field count (6 or 7), keeps the written form as {@code source} when none is given
         * and the default daylight-saving policy when none is given.
         */
        public Cron {
            Objects.requireNonNull(zone, "zone must not be null");
            dst = dst == null ? DstPolicy.DEFAULT : dst;
            if (quartzExpression == null || quartzExpression.isBlank()) {
                throw new IllegalArgumentException("cron must not be blank, was '" + quartzExpression + "'");
            }
            quartzExpression = quartzExpression.trim();
            int fields = quartzExpression.split("\\s+").length;
            if (fields != 6 && fields != 7) {
                throw new IllegalArgumentException("cron '" + quartzExpression + "' has " + fields
                        + " fields; a Quartz expression has 6 or 7 (a 5-field Unix expression needs Schedule.unixCron)");
            }
            source = source == null ? quartzExpression : source.trim();
        }

        /**
         * @param quartzExpression see {@link Cron}
         * @param zone see {@link Cron}
         * @param source see {@link Cron}
         */
        public Cron(String quartzExpression, ZoneId zone, String source) {
            this(quartzExpression, zone, source, DstPolicy.DEFAULT);
        }

        /**
         * @param policy what times in a daylight-saving gap or overlap do
         * @return this schedule with that policy
         */
        public Cron withDst(DstPolicy policy) {
            return new Cron(quartzExpression, zone, source, Objects.requireNonNull(policy, "dst must not be null"));
        }

        /**
         * @param gap what a time in a gap does
         * @return this schedule with that gap rule
         */
        public Cron onGap(DstPolicy.Gap gap) {
            return withDst(dst.withGap(gap));
        }

        /**
         * @param overlap what a time in an overlap does
         * @return this schedule with that overlap rule
         */
        public Cron onOverlap(DstPolicy.Overlap overlap) {
            return withDst(dst.withOverlap(overlap));
        }

        /** @return {@code cron <quartz> <zone>}, followed by the policy when it is not the default */
        @Override
        public String describe() {
            String described = "cron " + quartzExpression + " " + zone.getId();
            return dst.equals(DstPolicy.DEFAULT) ? described : described + " " + dst;
        }
    }

    /**
     * A fixed-interval schedule aligned to the Unix epoch.
     *
     * @param interval whole seconds, at least one
     * @param zone kept for display; an interval does not depend on it
     */
    record Interval(Duration interval, ZoneId zone) implements Schedule {
        /** Accepts whole seconds from 1 s to {@code Integer.MAX_VALUE} seconds. */
        public Interval {
            Objects.requireNonNull(interval, "interval must not be null");
            Objects.requireNonNull(zone, "zone must not be null");
            if (interval.getNano() != 0 || interval.getSeconds() < 1 || interval.getSeconds() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(
                        "every must be a whole number of seconds between 1s and " + Integer.MAX_VALUE + "s, was " + interval);
            }
        }

        /**
         * @param displayZone the zone to show the schedule in
         * @return the same interval with that zone
         */
        public Interval in(ZoneId displayZone) {
            return new Interval(interval, displayZone);
        }

        @Override
        public String describe() {
            return "every " + interval.getSeconds() + "s";
        }
    }
}
