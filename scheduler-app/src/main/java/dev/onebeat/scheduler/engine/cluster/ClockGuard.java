package dev.onebeat.scheduler.engine.cluster;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextStartedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Measures this replica's clock against the database's every {@code onebeat.cluster.clock-check-interval} and puts
 * the replica's firing on hold while the two differ by more than {@code onebeat.cluster.max-clock-skew}: Quartz goes
 * to standby (it acquires no trigger; the replicas whose clocks agree fire them) and starts again once the clock is
 * back within the maximum. Only a hold of its own is lifted: a Quartz never started
 * ({@code spring.quartz.auto-startup=false}) or stopped for shutdown stays as it is.
 *
 * <p>Within the maximum no hold is needed: a fire waits for the database's time ({@link DatabaseClock}). Beyond it
 * the replica would hold every fire for as long as its lead, or, behind, take triggers only once they are late.
 *
 * <p>Gauges: {@code onebeat_clock_skew_seconds} (database minus replica: negative when the replica is ahead) and
 * {@code onebeat_clock_firing_held} (1 while on hold).
 */
@Component
class ClockGuard implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ClockGuard.class);

    private final DatabaseClock clock;
    private final Scheduler scheduler;
    private final ClockProperties properties;
    private volatile boolean held;
    private ScheduledExecutorService executor;
    /** Set by {@link #stop} until the next {@link #start}. */
    private boolean stopped;

    ClockGuard(DatabaseClock clock, Scheduler scheduler, ClockProperties properties, MeterRegistry registry) {
        this.clock = clock;
        this.scheduler = scheduler;
        this.properties = properties;
        Gauge.builder("onebeat.clock.skew", this, guard -> seconds(guard.clock.last()))
                .description("Database time minus this replica's time, at the last measurement").baseUnit("seconds")
                .register(registry);
        Gauge.builder("onebeat.clock.firing.held", this, guard -> guard.held ? 1 : 0)
                .description("1 while this replica fires nothing because its clock is off beyond the maximum")
                .register(registry);
    }

    /** What the guard knows: the latest reading (null before the first), whether firing is on hold, the maximum. */
    record State(ClockReading reading, boolean held, Duration maxSkew) {
    }

    State state() {
        return new State(clock.last(), held, properties.maxClockSkew());
    }

    /** Measures, then holds or resumes firing as the measurement says. */
    void check() {
        ClockReading reading;
        try {
            reading = clock.read();
        } catch (RuntimeException e) {
            log.warn("clock not compared with the database's, trying again in {} error={}",
                    properties.clockCheckInterval(), e.toString());
            return;
        }
        try {
            if (reading.beyond(properties.maxClockSkew())) {
                hold(reading);
            } else if (held) {
                resume(reading);
            }
        } catch (SchedulerException | RuntimeException e) {
            log.warn("firing not put on hold or resumed for clock skew skewMillis={} error={}", reading.skew().toMillis(),
                    e.toString());
        }
    }

    private synchronized void hold(ClockReading reading) throws SchedulerException {
        if (!scheduler.isStarted() || scheduler.isShutdown() || scheduler.isInStandbyMode()) {
            // not firing (not started yet, shut down, or held already): nothing to hold
            return;
        }
        scheduler.standby();
        held = true;
        log.error("clock skew beyond the maximum, firing on hold: database time minus replica time skewMillis={} "
                        + "maxSkewMillis={}; the other replicas fire; fix NTP on this host (onebeat.cluster.max-clock-skew)",
                reading.skew().toMillis(), properties.maxClockSkew().toMillis());
    }

    private synchronized void resume(ClockReading reading) throws SchedulerException {
        if (stopped) {
            // a check that ran into a stop resumes nothing: Quartz stays in the standby the stop put it in, and the
            // check after the next start decides
            return;
        }
        if (!scheduler.isShutdown() && scheduler.isInStandbyMode()) {
            scheduler.start();
        }
        held = false;
        log.info("clock back within the maximum, firing resumed skewMillis={} maxSkewMillis={}",
                reading.skew().toMillis(), properties.maxClockSkew().toMillis());
    }

    /**
     * Once every lifecycle has started (Quartz last), so that a replica skewed at start-up is held at once; and again
     * each time the context is started after a stop ({@code ContextStartedEvent}, a restart's too), which starts
     * Quartz whether or not it was on hold when it stopped.
     */
    @EventListener({ApplicationReadyEvent.class, ContextStartedEvent.class})
    void checkWhenReady() {
        check();
    }

    @Override
    public synchronized void start() {
        stopped = false;
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "onebeat-clock-guard");
            thread.setDaemon(true);
            return thread;
        });
        long millis = properties.clockCheckInterval().toMillis();
        executor.scheduleWithFixedDelay(this::check, millis, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        // in Quartz's phase, in no set order with it: a check running meanwhile resumes nothing once this has run
        // (one that got there first starts Quartz, which RunningFiresAtShutdown puts in standby again after)
        stopped = true;
        executor.shutdownNow();
        executor = null;
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    private static double seconds(ClockReading reading) {
        return reading == null ? Double.NaN : reading.skew().toNanos() / 1e9;
    }
}
