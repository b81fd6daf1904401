package dev.onebeat.scheduler.quartz;

import dev.onebeat.scheduler.schedule.Descriptions;
import dev.onebeat.scheduler.schedule.ScheduledInstant;
import dev.onebeat.scheduler.schedule.Timetable;
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
 * <p>The schedule is kept as its {@link dev.onebeat.job.Schedule#describe()} text, which
 * {@link TimetableTriggerPersistence} stores in Quartz's simple-properties table; the timetable is
 * rebuilt from it on every replica.
 */
public final class TimetableTrigger extends AbstractTrigger<TimetableTrigger> {

    /** Quartz's trigger type of these triggers, in {@code QRTZ_TRIGGERS.TRIGGER_TYPE} (8 characters at most). */
    static final String TYPE = "ONEBEAT";
    /** After a misfire, fire once now (Quartz's smart policy is the same). */
    public static final int MISFIRE_FIRE_ONCE_NOW = 1;
    /** After a misfire, wait for the next instant after now. */
    public static final int MISFIRE_DO_NOTHING = 2;

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
    private transient Timetable timetable;

    /** @param schedule a {@link dev.onebeat.job.Schedule#describe()} text */
    TimetableTrigger(String schedule) {
        this.schedule = schedule;
        this.timetable = Timetable.of(Descriptions.parse(schedule));
    }

    /** @return the schedule fired, as {@link dev.onebeat.job.Schedule#describe()} writes it */
    public String schedule() {
        return schedule;
    }

    /** @return the instants fired */
    public Timetable timetable() {
        if (timetable == null) {
            timetable = Timetable.of(Descriptions.parse(schedule));
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
        Date now = new Date();
        // fire once now stands for the latest missed instant, which the fire works out from its fire time;
        // doing nothing waits for the first instant after now, fired at once if it is less than LEAD away
        nextFireTime = instruction == MISFIRE_DO_NOTHING ? fireTime(instantAfter(now.toInstant())) : now;
    }

    @Override
    public void updateWithNewCalendar(Calendar calendar, long misfireThreshold) {
        // onebeat never attaches Quartz calendars: the timetable is the whole calendar
    }

    @Override
    protected boolean validateMisfireInstruction(int instruction) {
        return instruction >= Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY && instruction <= MISFIRE_DO_NOTHING;
    }

    @Override
    public ScheduleBuilder<TimetableTrigger> getScheduleBuilder() {
        return new TimetableScheduleBuilder(schedule, getMisfireInstruction());
    }
}
