package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.FireFaults;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.listeners.SchedulerListenerSupport;
import org.springframework.stereotype.Component;

/**
 * Tells {@link FireFaults} each time the work of Quartz's job store failed in the database ({@link
 * OnebeatJobStore#STORE_FAULT}): acquiring the next triggers, marking them fired, completing a fire. Quartz logs such
 * an error without the instants it stops, and tries again after
 * {@code org.quartz.scheduler.dbFailureRetryInterval}; the instants whose fires did not begin meanwhile are missed for
 * that reason ({@link FireFaults}).
 */
@Component
class QuartzFaults extends SchedulerListenerSupport {

    private final FireFaults faults;
    private final String node;

    QuartzFaults(Scheduler scheduler, FireFaults faults) throws SchedulerException {
        this.faults = faults;
        this.node = scheduler.getSchedulerInstanceId();
        scheduler.getListenerManager().addSchedulerListener(this);
    }

    @Override
    public void schedulerError(String msg, SchedulerException cause) {
        // Quartz's own error for the first of a run of failures is told again as the store's
        if (OnebeatJobStore.STORE_FAULT.equals(msg)) {
            faults.failed(FireFaults.Stage.QUARTZ, node, cause);
        }
    }
}
