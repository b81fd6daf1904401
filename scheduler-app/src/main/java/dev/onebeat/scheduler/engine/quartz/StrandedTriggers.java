package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.cluster.FailoverProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Gives back the triggers that this replica's own fire records hold while no thread of it runs their fire
 * ({@link OnebeatJobStore#recoverStranded}): after a failover the new primary may hold such records, and no replica
 * would ever recover them, since this one is alive. Run right after a detected change of the database server, and
 * every {@link FailoverProperties#sweepInterval()} besides: a change the watch cannot see (a pooler in front of the
 * server, a restore) strands them just as well, and a record is only old enough to be stranded
 * {@link FailoverProperties#strandedAfter()} after its fire. Each sweep is one indexed read of this replica's few
 * records; Quartz's lock is taken only when one is stranded.
 */
@Component
class StrandedTriggers implements DisposableBean {

    /** The counter of fire records recovered, {@code onebeat_quartz_stranded_recovered_total}. */
    static final String METRIC = "onebeat.quartz.stranded.recovered";

    private static final Logger log = LoggerFactory.getLogger(StrandedTriggers.class);

    private final Scheduler scheduler;
    private final FailoverProperties properties;
    private final Counter recovered;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-stranded-triggers");
        daemon.setDaemon(true);
        return daemon;
    });

    StrandedTriggers(Scheduler scheduler, FailoverProperties properties, MeterRegistry meters) {
        this.scheduler = scheduler;
        this.properties = properties;
        this.recovered = Counter.builder(METRIC)
                .description("this replica's own Quartz fire records recovered while no thread ran their fire")
                .register(meters);
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        long every = properties.sweepInterval().toMillis();
        thread.scheduleWithFixedDelay(this::sweepQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    private void sweepQuietly() {
        try {
            sweep();
            resetHandBacksInError();
        } catch (RuntimeException e) {
            log.debug("stranded fire records not looked for, trying again in {} error={}",
                    properties.sweepInterval(), e.toString());
        }
    }

    /**
     * Puts back the hand-back triggers Quartz left in its ERROR state: those of lost fires ({@link LostFiresJob}) that a
     * replica of an older version acquired and could not load the job of. They fire again, on whichever replica
     * acquires them, and wait once more if that is an older one, until the rolling deploy is over.
     *
     * @return how many were put back
     */
    int resetHandBacksInError() {
        try {
            // one read of the group's few keys (a hand-back trigger lives until its fire completes), one per trigger
            List<TriggerKey> inError = new ArrayList<>();
            for (TriggerKey key : scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(HandBack.GROUP))) {
                if (scheduler.getTriggerState(key) == Trigger.TriggerState.ERROR) {
                    scheduler.resetTriggerFromErrorState(key);
                    inError.add(key);
                }
            }
            if (!inError.isEmpty()) {
                log.warn("hand-back triggers put back from Quartz's ERROR state (a replica of an older version could "
                        + "not load their job) triggers={}", inError.size());
            }
            return inError.size();
        } catch (SchedulerException e) {
            throw new IllegalStateException("could not put back the hand-backs in ERROR: " + e.getMessage(), e);
        }
    }

    /**
     * Recovers the stranded records of this replica, if its Quartz runs.
     *
     * @return how many were recovered
     */
    int sweep() {
        try {
            if (!scheduler.isStarted() || scheduler.isInStandbyMode() || scheduler.isShutdown()) {
                return 0;
            }
            // read before the records: a fire that starts after this read is younger than the margin
            Set<String> running = scheduler.getCurrentlyExecutingJobs().stream()
                    .map(JobExecutionContext::getFireInstanceId).collect(Collectors.toSet());
            int count = OnebeatJobStore.of(scheduler).recoverStranded(running, properties.strandedAfter().toMillis());
            if (count > 0) {
                recovered.increment(count);
                log.warn("stranded fire records of this replica recovered (a failover left them; their triggers "
                        + "fire again) records={} olderThan={}", count, properties.strandedAfter());
            }
            return count;
        } catch (SchedulerException e) {
            throw new IllegalStateException("could not recover stranded fire records: " + e.getMessage(), e);
        }
    }

    @Override
    public void destroy() {
        thread.shutdownNow();
    }
}
