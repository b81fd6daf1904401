package dev.onebeat.scheduler.quartz;

import dev.onebeat.scheduler.fire.ScheduleFire;
import java.time.Clock;
import org.quartz.DisallowConcurrentExecution;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The Quartz job of one job written in code. Non-concurrent, so Quartz itself fires one instant of
 * the job at a time across the cluster, in step with the job's lock: while a fire runs, the next
 * instant waits in Quartz (and becomes a misfire if it waits too long) instead of holding a thread.
 */
@DisallowConcurrentExecution
public class SerialFireJob extends ScheduleFireJob {

    public SerialFireJob(ScheduleFire fire, ScheduleTriggers triggers, TransactionTemplate transactions, Clock clock) {
        super(fire, triggers, transactions, clock);
    }
}
