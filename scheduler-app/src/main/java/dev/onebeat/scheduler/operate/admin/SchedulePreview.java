package dev.onebeat.scheduler.operate.admin;

import dev.onebeat.job.Durations;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The coming instants of a schedule as onebeat computes them ({@link Timetable}), each in UTC and in
 * the local time of the schedule's zone, so an operator sees what a daylight-saving change does to it
 * before saving it: a time that a gap removes is shown shifted or skipped, a time that an overlap
 * repeats with the occurrence (or both) that fires, each with the rule that decided and a note.
 */
public final class SchedulePreview {

    private SchedulePreview() {
    }

    /**
     * @param schedule the schedule as onebeat runs it ({@link Schedule#describe()}, with its policy when
     *     that is not the default)
     * @param zone the zone local times are shown in
     * @param gap the schedule's gap rule ({@code shift}, {@code skip}), null for an interval
     * @param overlap the schedule's overlap rule ({@code first}, {@code last}, {@code both}), null for an
     *     interval
     * @param fires the coming firing instants, oldest first, with the times a gap skipped among them
     */
    public record Preview(String schedule, String zone, String gap, String overlap, List<Fire> fires) {
    }

    /**
     * One instant of the preview.
     *
     * @param utc the instant; for a skipped time, where it would have fired under {@code gap=shift}
     * @param local the same instant in the schedule's zone, with its offset ({@code 2027-03-28T03:30:00+02:00})
     * @param offset the zone's offset at that instant ({@code +02:00})
     * @param wallClock the wall-clock time the schedule's fields matched ({@code 2027-03-28T02:30:00}); it
     *     differs from {@code local} only for a time in a gap, which the zone's clocks never show
     * @param kind how daylight saving affected it: {@code REGULAR}, {@code GAP_SHIFTED}, {@code GAP_SKIPPED},
     *     {@code OVERLAP_FIRST}, {@code OVERLAP_SECOND}
     * @param fires false for a time skipped in a gap, which does not fire
     * @param rule the rule that placed an instant in a gap or an overlap ({@code gap=shift},
     *     {@code overlap=both}, {@code elapsed time}), null for a regular one
     * @param note what happened to that wall-clock time, for an operator; null for a regular instant
     * @param plannedAt when the job's fire of it begins: {@code utc} plus the job's spread and jitter
     *     ({@link FireMoments}), {@code utc} itself without them; null for a time that does not fire
     * @param skippedBy why the job's calendars or active period leave the instant out ({@code excluded by calendar
     *     'fr-holidays'}), or null when they do not: the schedule has the instant, the job does not fire it
     */
    public record Fire(Instant utc, String local, String offset, String wallClock, ScheduledInstant.Kind kind,
                       boolean fires, String rule, String note, Instant plannedAt, String skippedBy) {

        static Fire of(ScheduledInstant instant, Moves moves, Function<Instant, String> exclusions) {
            String skippedBy = instant.fires() ? exclusions.apply(instant.at()) : null;
            return new Fire(instant.at(), DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.localAt()),
                    instant.offset().getId(), DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(instant.local()),
                    instant.kind(), instant.fires(), instant.rule(), instant.note(),
                    instant.fires() && skippedBy == null ? instant.at().plus(moves.offset(instant.at())) : null,
                    skippedBy);
        }
    }

    /** Leaves no instant out: a schedule without a job's calendars. */
    public static final Function<Instant, String> NO_EXCLUSION = instant -> null;

    /**
     * What moves a job's fires past their instants: its name, its jitter and its schedule's spread.
     *
     * @param name the job's name, which its offsets come from; may be null when neither is set
     * @param jitter zero for none
     * @param spread zero for none
     */
    public record Moves(String name, Duration jitter, Duration spread) {

        /** Fires at the instants themselves. */
        public static final Moves NONE = new Moves(null, Duration.ZERO, Duration.ZERO);

        public Moves {
            if (name == null && !(jitter.isZero() && spread.isZero())) {
                throw new JobDefinitionException("name: is needed with a jitter or a spread; a job's offsets come "
                        + "from its name");
            }
        }

        /**
         * @param name the job's name, or null
         * @param jitter as written ({@code 30s}, {@code PT1M}), or null for none
         * @param spread as written, or null for none
         * @throws JobDefinitionException naming the field at fault
         */
        public static Moves parse(String name, String jitter, String spread) {
            return new Moves(name == null || name.isBlank() ? null : name, duration("jitter", jitter),
                    duration("spread", spread));
        }

        private static Duration duration(String field, String text) {
            if (text == null || text.isBlank()) {
                return Duration.ZERO;
            }
            try {
                Duration value = Durations.parse(text);
                if (value.isNegative()) {
                    throw new IllegalArgumentException("must not be negative, was " + value);
                }
                return value;
            } catch (IllegalArgumentException e) {
                throw new JobDefinitionException(field + ": " + e.getMessage(), e);
            }
        }

        Duration offset(Instant instant) {
            return name == null ? Duration.ZERO : FireMoments.offset(name, jitter, spread, instant);
        }
    }

    /**
     * @param schedule the schedule as text
     * @return the first {@code count} fires at or after {@code from}, with the skipped times among them
     * @throws dev.onebeat.scheduler.engine.registry.JobDefinitionException naming the field at fault, in the words
     *         start-up would use
     */
    public static Preview of(ScheduleFields schedule, Instant from, int count) {
        return of(schedule.parse(from), from, count, Moves.NONE, NO_EXCLUSION);
    }

    /**
     * @param moves the job's name, jitter and spread, which place each fire's planned moment
     * @return as {@link #of(ScheduleFields, Instant, int)}, each fire with its planned moment
     */
    public static Preview of(ScheduleFields schedule, Instant from, int count, Moves moves) {
        return of(schedule.parse(from), from, count, moves, NO_EXCLUSION);
    }

    /**
     * @param exclusions why the job's calendars leave each instant out, null for none ({@code Calendars#exclusions})
     * @return as {@link #of(ScheduleFields, Instant, int, Moves)}, each fire saying whether the calendars skip it
     */
    public static Preview of(ScheduleFields schedule, Instant from, int count, Moves moves,
                             Function<Instant, String> exclusions) {
        return of(schedule.parse(from), from, count, moves, exclusions);
    }

    /**
     * @return the first {@code count} firing instants of {@code schedule} at or after {@code from}, oldest
     *         first, fewer if the schedule ends; the times a gap skipped before the last of them are listed
     *         too, marked as not firing
     */
    public static Preview of(Schedule schedule, Instant from, int count, Moves moves,
                             Function<Instant, String> exclusions) {
        Timetable timetable = Timetable.of(schedule);
        List<ScheduledInstant> firing = new ArrayList<>(count);
        for (ScheduledInstant next = timetable.next(from.minusNanos(1)); next != null && firing.size() < count;
             next = timetable.next(next.at())) {
            firing.add(next);
        }
        // the window holds exactly the fires found, so it holds no more than they and the skipped times
        List<ScheduledInstant> instants = firing.isEmpty() ? firing
                : timetable.between(from, firing.get(firing.size() - 1).at().plusNanos(1), Integer.MAX_VALUE);
        String gap = null;
        String overlap = null;
        if (schedule instanceof Schedule.Cron cron) {
            gap = cron.dst().gap().text();
            overlap = cron.dst().overlap().text();
        }
        return new Preview(schedule.describe(), schedule.zone().getId(), gap, overlap,
                instants.stream().map(instant -> Fire.of(instant, moves, exclusions)).toList());
    }
}
