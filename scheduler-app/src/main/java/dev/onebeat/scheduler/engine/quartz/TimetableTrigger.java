package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.job.DstPolicy;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.engine.schedule.Descriptions;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.quartz.Calendar;
import org.quartz.ScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.impl.triggers.AbstractTrigger;

/**
 * A Quartz trigger that fires at the instants of a {@link Timetable}: Quartz keeps doing what it is
 * good at (storing the next fire time, acquiring it under its cluster lock, re-arming it in the same
 * transaction that records the fire, recovering a dead replica's fire), while onebeat decides what
 * the instants are, daylight saving included. Quartz's cron trigger, by contrast, loses or repeats
 * instants around daylight-saving changes.
 *
 * <p>Quartz fires the trigger {@link #LEAD} before each instant, and the fire waits in memory for the
 * instant itself ({@link ScheduleFireJob}): Quartz's part of a fire (marking the trigger fired under its
 * cluster lock, several milliseconds per trigger) is then done by the time the instant comes, instead of
 * delaying the schedules due together with it. The fire still stands for the instant and starts no
 * earlier; a replica dying while it waits leaves Quartz to recover it, as any other fire.
 *
 * <p>After a misfire (every replica down, or all busy, for longer than Quartz's misfire threshold) the
 * trigger fires once at once, whatever the job's misfire policy, and remembers the first instant it missed
 * ({@link #missedSince}): that fire decides, per job and policy, which missed instants fire and records
 * the others as skipped. The range is stored with the trigger, so a replica recovering that fire after a
 * crash sees it too.
 *
 * <p>The schedule is kept as its {@link dev.onebeat.job.Schedule#describe()} text, which
 * {@link TimetableTriggerPersistence} stores in Quartz's simple-properties table; the timetable is
 * rebuilt from it on every replica.
 */
public final class TimetableTrigger extends AbstractTrigger<TimetableTrigger> {

    /** Quartz's trigger type of these triggers, in {@code QRTZ_TRIGGERS.TRIGGER_TYPE} (8 characters at most). */
    static final String TYPE = "ONEBEAT";
    /** After a misfire, fire once now (Quartz's smart policy is the same). */
    public static final int MISFIRE_FIRE_ONCE_NOW = 1;
    /** After a misfire, fire nothing missed: the fire now only records the missed instants as skipped. */
    public static final int MISFIRE_DO_NOTHING = 2;
    /** After a misfire, fire the missed instants each job's catch-up window and max-catch-up allow. */
    public static final int MISFIRE_CATCH_UP = 3;

    /**
     * How long before an instant Quartz fires its trigger. Less than the shortest period a schedule can have
     * (one second), so a fire time maps back to one instant.
     */
    public static final Duration LEAD = Duration.ofMillis(200);

    private static final long serialVersionUID = 1L;

    private String schedule;
    private Date startTime = new Date();
    private Date endTime;
    private Date nextFireTime;
    private Date previousFireTime;
    private Date missedFrom;
    private Date missedBy;
    private transient Timetable timetable;
    private transient boolean skipsGaps;

    /** @param schedule a {@link dev.onebeat.job.Schedule#describe()} text */
    TimetableTrigger(String schedule) {
        this(schedule, null, null);
    }

    /**
     * @param missedFrom the first instant of the last misfire, or null
     * @param missedBy the fire time of the fire that stands for that misfire, or null until it is triggered
     */
    TimetableTrigger(String schedule, Date missedFrom, Date missedBy) {
        this.schedule = schedule;
        parse();
        this.missedFrom = missedFrom;
        this.missedBy = missedBy;
    }

    /**
     * @param fireTime the time Quartz fired this trigger at (a recovered fire's original time)
     * @return the first instant that fire stands in for after a misfire, the instants from it up to the fire's own
     *         having been missed; null if that fire is not the one after a misfire
     */
    public Instant missedSince(Instant fireTime) {
        return missedFrom != null && missedBy != null && missedBy.toInstant().equals(fireTime)
                ? missedFrom.toInstant() : null;
    }

    /** @return whether the schedule is a cron that skips wall-clock times in a daylight-saving gap */
    boolean skipsGaps() {
        if (timetable == null) {
            parse();
        }
        return skipsGaps;
    }

    /** Reads the schedule once for both what the trigger fires and whether it skips times in a gap. */
    private void parse() {
        Schedule parsed = Descriptions.parse(schedule);
        timetable = Timetable.of(parsed);
        skipsGaps = parsed instanceof Schedule.Cron cron && cron.dst().gap() == DstPolicy.Gap.SKIP;
    }

    /** @return the first instant of the last misfire, or null (stored with the trigger) */
    Date missedFrom() {
        return missedFrom;
    }

    /** @return the fire time of the fire that stood for the last misfire, or null (stored with the trigger) */
    Date missedBy() {
        return missedBy;
    }

    /** @return the schedule fired, as {@link dev.onebeat.job.Schedule#describe()} writes it */
    public String schedule() {
        return schedule;
    }

    /** @return the instants fired */
    public Timetable timetable() {
        if (timetable == null) {
            parse();
        }
        return timetable;
    }

    @Override
    public Date getStartTime() {
        return startTime;
    }

    @Override
    public void setStartTime(Date startTime) {
        if (startTime == null) {
            throw new IllegalArgumentException("start time cannot be null");
        }
        this.startTime = startTime;
    }

    @Override
    public Date getEndTime() {
        return endTime;
    }

    @Override
    public void setEndTime(Date endTime) {
        this.endTime = endTime;
    }

    @Override
    public Date getNextFireTime() {
        return nextFireTime;
    }

    @Override
    public void setNextFireTime(Date nextFireTime) {
        this.nextFireTime = nextFireTime;
    }

    @Override
    public Date getPreviousFireTime() {
        return previousFireTime;
    }

    @Override
    public void setPreviousFireTime(Date previousFireTime) {
        this.previousFireTime = previousFireTime;
    }

    /** @return the time Quartz fires the trigger for the first instant later than {@code afterTime} + {@link #LEAD} */
    @Override
    public Date getFireTimeAfter(Date afterTime) {
        Instant after = (afterTime == null ? Instant.now() : afterTime.toInstant()).plus(LEAD);
        return fireTime(instantAfter(after));
    }

    /** @return the first instant after {@code after}, not before the start time nor after the end time; or null */
    private Instant instantAfter(Instant after) {
        Instant start = startTime.toInstant().minusMillis(1);
        ScheduledInstant next = timetable().next(after.isBefore(start) ? start : after);
        if (next == null || (endTime != null && next.at().isAfter(endTime.toInstant()))) {
            return null;
        }
        return next.at();
    }

    private static Date fireTime(Instant instant) {
        return instant == null ? null : Date.from(instant.minus(LEAD));
    }

    @Override
    public Date getFinalFireTime() {
        return null;
    }

    @Override
    public boolean mayFireAgain() {
        return nextFireTime != null;
    }

    @Override
    public Date computeFirstFireTime(Calendar calendar) {
        nextFireTime = fireTime(instantAfter(startTime.toInstant().minusMillis(1)));
        return nextFireTime;
    }

    @Override
    public void triggered(Calendar calendar) {
        Date fired = nextFireTime;
        if (fired != null && !isFireTime(fired)) {
            // a "fire once now" after a misfire: Quartz's misfire scan set the time, possibly seconds before
            // the fire. The fire stands for the latest instant up to its fire time + LEAD (the scheduled time
            // Quartz hands the job is the previous fire time set here), and the trigger goes on after that
            // instant, so the two never fire one instant twice.
            Date now = new Date();
            fired = now.after(fired) ? now : fired;
        }
        previousFireTime = fired;
        nextFireTime = getFireTimeAfter(fired);
        if (missedFrom != null && missedBy == null) {
            missedBy = fired;
        }
    }

    /**
     * @return whether {@code time} is when the trigger fires for an instant: {@link #LEAD} before it, or (a
     *         trigger armed by a version without the lead) the instant itself
     */
    static boolean isFireTime(Timetable timetable, Instant time) {
        return isInstant(timetable, time.plus(LEAD)) || isInstant(timetable, time);
    }

    private boolean isFireTime(Date time) {
        return isFireTime(timetable(), time.toInstant());
    }

    private static boolean isInstant(Timetable timetable, Instant time) {
        ScheduledInstant instant = timetable.next(time.minusNanos(1));
        return instant != null && instant.at().equals(time);
    }

    @Override
    public void updateAfterMisfire(Calendar calendar) {
        int instruction = getMisfireInstruction();
        if (instruction == Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY) {
            return;
        }
        boolean pending = missedFrom != null && missedBy == null;
        if (!pending && nextFireTime != null) {
            // the first instant missed; a misfire of the fire that stands for an earlier misfire keeps that one's start
            missedFrom = Date.from(LogicalInstants.ofFireTime(timetable(), nextFireTime.toInstant()));
            missedBy = null;
        }
        // whatever the policy, one fire now: it stands for the latest missed instant, which it works out from its
        // fire time, and settles every missed instant by the policy of each of its jobs (ScheduleFire)
        nextFireTime = new Date();
    }

    @Override
    public void updateWithNewCalendar(Calendar calendar, long misfireThreshold) {
        // onebeat never attaches Quartz calendars: the timetable is the whole calendar
    }

    @Override
    protected boolean validateMisfireInstruction(int instruction) {
        return instruction >= Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY && instruction <= MISFIRE_CATCH_UP;
    }

    @Override
    public ScheduleBuilder<TimetableTrigger> getScheduleBuilder() {
        return new TimetableScheduleBuilder(schedule, getMisfireInstruction(), missedFrom, missedBy);
    }
}
