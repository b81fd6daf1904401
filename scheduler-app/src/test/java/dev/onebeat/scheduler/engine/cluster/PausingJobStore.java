package dev.onebeat.scheduler.engine.cluster;

import dev.onebeat.scheduler.engine.quartz.OnebeatJobStore;
import java.sql.Connection;
import org.quartz.JobPersistenceException;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;

/**
 * onebeat's job store with a {@link PausePoint} inside Quartz's re-arming of a schedule's trigger: the
 * transaction that records the fire and stores the trigger's next fire time, holding Quartz's row lock.
 */
public class PausingJobStore extends OnebeatJobStore {

    @Override
    protected TriggerFiredBundle triggerFired(Connection conn, OperableTrigger trigger) throws JobPersistenceException {
        if (trigger.getKey().getGroup().equals("onebeat-schedule")) {
            PausePoint.reach("re-arm");
        }
        return super.triggerFired(conn, trigger);
    }
}
