package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.cluster.FailoverProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
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
 * records; Quartz's lock is taken only when one is stranded. Each sweep also puts back the triggers of lost fires
 * handed back together that a replica of an older version left in Quartz's ERROR state ({@link
 * #resetHandBacksInError}), one more indexed statement.
 */
@Component
class StrandedTriggers implements DisposableBean {

    /** The counter of fire records recovered, {@code onebeat_quartz_stranded_recovered_total}. */
    static final String METRIC = "onebeat.quartz.stranded.recovered";

    private static final Logger log = LoggerFactory.getLogger(StrandedTriggers.class);

    private final Scheduler scheduler;
    private final ScheduleTriggers triggers;
    private final FailoverProperties properties;
    private final Counter recovered;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-stranded-triggers");
        daemon.setDaemon(true);
        return daemon;
    });

    StrandedTriggers(Scheduler scheduler, ScheduleTriggers triggers, FailoverProperties properties,
                     MeterRegistry meters) {
        this.scheduler = scheduler;
        this.triggers = triggers;
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
     * Puts back the triggers of lost fires handed back together ({@link LostFiresJob}) that Quartz left in its ERROR
     * state: a replica of an older version acquired them and could not load their job. Each is made to fire a second
     * from now ({@link ScheduleTriggers#putBackFromError}), on whichever replica acquires it, and waits once more if
     * that is an older one, until the rolling deploy is over. One indexed statement.
     *
     * @return how many were put back
     */
    int resetHandBacksInError() {
        try {
            int putBack = triggers.putBackFromError(HandBack.GROUP, QuartzTriggers.LOST_JOB,
                    Instant.now().plusSeconds(1));
            if (putBack > 0) {
                log.warn("hand-back triggers put back from Quartz's ERROR state (a replica of an older version could "
                        + "not load their job) triggers={}", putBack);
            }
            return putBack;
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
