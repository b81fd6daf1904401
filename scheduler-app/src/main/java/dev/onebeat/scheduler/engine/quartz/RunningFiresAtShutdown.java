package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.scheduler.engine.fire.ScheduleFire;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.context.LifecycleProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Puts the end of a replica in order. Spring's Quartz scheduler only goes to standby when its
 * lifecycle stops (in the default phase) and waits for its running jobs only when it is destroyed,
 * after every lifecycle, the relay's included, has stopped: a fire running at SIGTERM committed after
 * the relay had gone, and its tasks waited for the next start. This stops between the two: once
 * Quartz takes no more fires, it waits for the fires this replica is running to end (up to
 * {@code spring.lifecycle.timeout-per-shutdown-phase}, 30 s by default), and only then does the relay,
 * in {@code Relay.PHASE}, run its last rounds and stop, before the data source closes.
 *
 * <p>Jobs of a running fire that wait for their planned moment (a jitter or a spread) fire at once, early, rather
 * than hold the stop for up to their window.
 *
 * <p>A fire still running after the timeout commits later; its tasks wait in the outbox for another
 * replica's relay or the next start, as before. The other replicas see this one checking in
 * meanwhile, so they do not recover its fires while it waits.
 */
@Component
class RunningFiresAtShutdown implements SmartLifecycle {

    /** After Quartz's standby (the default phase), before the relay's phase ({@code DEFAULT_PHASE - 1024}). */
    static final int PHASE = DEFAULT_PHASE - 512;

    private static final Logger log = LoggerFactory.getLogger(RunningFiresAtShutdown.class);
    private static final Duration POLL = Duration.ofMillis(25);

    private final Scheduler scheduler;
    private final ScheduleFire fires;
    private final Duration timeout;
    private final Clock clock;
    private volatile boolean running;

    RunningFiresAtShutdown(Scheduler scheduler, ScheduleFire fires, LifecycleProperties lifecycle, Clock clock) {
        this.scheduler = scheduler;
        this.fires = fires;
        this.timeout = lifecycle.getTimeoutPerShutdownPhase();
        this.clock = clock;
    }

    @Override
    public void start() {
        // before Quartz, which starts in a later phase: the first start, or a start after a stop
        fires.takeFiresAgain();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        try {
            // Quartz's own lifecycle did this in the phase before; it is repeated so no fire can start past here
            scheduler.standby();
            // jobs of a running fire still waiting for their moment (a jitter, a spread) fire now, not lost, not waited
            fires.fireWaitingNow();
            awaitRunningFires();
        } catch (SchedulerException e) {
            log.warn("shutdown: could not wait for running fires, the relay stops now: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitRunningFires() throws SchedulerException, InterruptedException {
        Instant started = clock.instant();
        Instant deadline = started.plus(timeout);
        int seen = 0;
        // a trigger Quartz fired just before standby reaches the running list only once a pool thread
        // has taken it: none running is believed on two looks in a row
        for (int idle = 0; idle < 2; ) {
            List<JobExecutionContext> fires = scheduler.getCurrentlyExecutingJobs();
            seen = Math.max(seen, fires.size());
            idle = fires.isEmpty() ? idle + 1 : 0;
            if (!fires.isEmpty() && !clock.instant().isBefore(deadline)) {
                log.warn("shutdown: {} fire(s) still running after {} ms (spring.lifecycle.timeout-per-shutdown-phase): "
                        + "the relay stops without them, and their tasks wait in the outbox; triggers={}", fires.size(),
                        timeout.toMillis(), fires.stream().map(fire -> fire.getTrigger().getKey().getName()).toList());
                return;
            }
            Thread.sleep(POLL.toMillis());
        }
        if (seen > 0) {
            log.info("shutdown: waited {} ms for {} running fire(s) to end before the relay's last round",
                    Duration.between(started, clock.instant()).toMillis(), seen);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
