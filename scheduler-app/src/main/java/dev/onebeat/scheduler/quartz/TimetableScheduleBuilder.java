package dev.onebeat.scheduler.quartz;

import org.quartz.ScheduleBuilder;
import org.quartz.spi.MutableTrigger;

/** Builds {@link TimetableTrigger}s for Quartz's {@link org.quartz.TriggerBuilder}, and when Quartz loads one. */
final class TimetableScheduleBuilder extends ScheduleBuilder<TimetableTrigger> {

    private final String schedule;
    private final int misfireInstruction;

    /**
     * @param schedule a {@link dev.onebeat.job.Schedule#describe()} text
     * @param misfireInstruction one of {@link TimetableTrigger}'s misfire constants, or Quartz's ignore policy
     */
    TimetableScheduleBuilder(String schedule, int misfireInstruction) {
        this.schedule = schedule;
        this.misfireInstruction = misfireInstruction;
    }

    @Override
    protected MutableTrigger build() {
        TimetableTrigger trigger = new TimetableTrigger(schedule);
        trigger.setMisfireInstruction(misfireInstruction);
        return trigger;
    }
}
