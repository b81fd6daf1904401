package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.ScheduleFire;
import java.time.Clock;
import org.quartz.DisallowConcurrentExecution;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The Quartz job earlier versions made for each job written in code, non-concurrent so that Quartz fired
 * one instant of the job at a time. Triggers now fire {@link ScheduleFireJob} and the job's overlap policy
 * decides what meeting instants do; this class stays so that a fire stored by an older replica (recovered
 * after it died, or during a rolling deploy) still runs.
 */
@DisallowConcurrentExecution
public class SerialFireJob extends ScheduleFireJob {

    public SerialFireJob(ScheduleFire fire, ScheduleTriggers triggers, TransactionTemplate transactions, Clock clock) {
        super(fire, triggers, transactions, clock);
    }
}
