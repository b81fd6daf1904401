package dev.onebeat.scheduler.quartz;

import dev.onebeat.scheduler.schedule.Descriptions;
import dev.onebeat.scheduler.schedule.ScheduledInstant;
import dev.onebeat.scheduler.schedule.Timetable;
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

    @Override
    public Date getFireTimeAfter(Date afterTime) {
        Date after = afterTime == null ? new Date() : afterTime;
        if (after.before(startTime)) {
            after = new Date(startTime.getTime() - 1);
        }
        ScheduledInstant next = timetable().next(after.toInstant());
        if (next == null || (endTime != null && next.at().isAfter(endTime.toInstant()))) {
            return null;
        }
        return Date.from(next.at());
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
        nextFireTime = getFireTimeAfter(new Date(startTime.getTime() - 1));
        return nextFireTime;
    }

    @Override
    public void triggered(Calendar calendar) {
        Date fired = nextFireTime;
        if (fired != null && !isInstant(fired)) {
            // a "fire once now" after a misfire: Quartz's misfire scan set the time, possibly seconds before
            // the fire. The fire stands for the latest instant before it actually fires (which is the
            // scheduled time Quartz hands the job: the previous fire time set here), and the trigger goes on
            // after that instant, so the two never fire one instant twice.
            Date now = new Date();
            fired = now.after(fired) ? now : fired;
        }
        previousFireTime = fired;
        nextFireTime = getFireTimeAfter(fired);
    }

    private boolean isInstant(Date time) {
        ScheduledInstant instant = timetable().next(time.toInstant().minusNanos(1));
        return instant != null && instant.at().equals(time.toInstant());
    }

    @Override
    public void updateAfterMisfire(Calendar calendar) {
        int instruction = getMisfireInstruction();
        if (instruction == Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY) {
            return;
        }
        Date now = new Date();
        // fire once now stands for the latest missed instant, which the fire works out from its fire time
        nextFireTime = instruction == MISFIRE_DO_NOTHING ? getFireTimeAfter(now) : now;
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
