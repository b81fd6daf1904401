package dev.onebeat.scheduler.engine.quartz;

import java.util.Date;
import org.quartz.ScheduleBuilder;
import org.quartz.spi.MutableTrigger;

/** Builds {@link TimetableTrigger}s for Quartz's {@link org.quartz.TriggerBuilder}, and when Quartz loads one. */
final class TimetableScheduleBuilder extends ScheduleBuilder<TimetableTrigger> {

    private final String schedule;
    private final int misfireInstruction;
    private final Date missedFrom;
    private final Date missedBy;

    /**
     * @param schedule a {@link dev.onebeat.job.Schedule#describe()} text
     * @param misfireInstruction one of {@link TimetableTrigger}'s misfire constants, or Quartz's ignore policy
     */
    TimetableScheduleBuilder(String schedule, int misfireInstruction) {
        this(schedule, misfireInstruction, null, null);
    }

    /** As above, for a stored trigger with the range of its last misfire ({@link TimetableTrigger#missedSince}). */
    TimetableScheduleBuilder(String schedule, int misfireInstruction, Date missedFrom, Date missedBy) {
        this.schedule = schedule;
        this.misfireInstruction = misfireInstruction;
        this.missedFrom = missedFrom;
        this.missedBy = missedBy;
    }

    @Override
    protected MutableTrigger build() {
        TimetableTrigger trigger = new TimetableTrigger(schedule, missedFrom, missedBy);
        trigger.setMisfireInstruction(misfireInstruction);
        return trigger;
    }
}
