package dev.onebeat.scheduler.operate.backfill;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.fire.FireOutcome;
import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireResult;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * Works through the running backfills on whichever replica takes each one's lock
 * ({@code onebeat-backfill:<id>}, ShedLock, for {@link #lockFor}): from the instant after its cursor,
 * oldest first, each instant without a committed fire is fired through the fire path (trigger kind
 * {@code backfill}, the instant's own keys), then the cursor moves on; {@code onebeat.backfill.spacing}
 * apart. A replica stopping or dying leaves the backfill to the next that takes the lock: it goes on from
 * the cursor, and an instant that committed meanwhile is found committed, not fired again.
 */
@Component
class BackfillRunner implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(BackfillRunner.class);
    static final String LOCK_PREFIX = "onebeat-backfill:";
    /** How long a replica works on a backfill at a time: it starts no fire after, lets go and takes it again. */
    static final Duration TURN = Duration.ofSeconds(20);
    /** Beyond a turn and its last fire: the database's clock (the lock's) against this replica's (the turn's). */
    static final Duration LOCK_MARGIN = Duration.ofSeconds(10);
    private static final int SLICE = 100;

    private final BackfillTable table;
    private final JobRegistry registry;
    private final FirePath firePath;
    private final Calendars calendars;
    private final LockProvider locks;
    private final Scheduler scheduler;
    private final BackfillProperties properties;
    private final Clock clock;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-backfill");
        daemon.setDaemon(true);
        return daemon;
    });
    private volatile boolean stopping;

    BackfillRunner(BackfillTable table, JobRegistry registry, FirePath firePath, LockProvider locks, Scheduler scheduler,
                   BackfillProperties properties, Clock clock, Calendars calendars) {
        this.calendars = calendars;
        this.table = table;
        this.registry = registry;
        this.firePath = firePath;
        this.locks = locks;
        this.scheduler = scheduler;
        this.properties = properties;
        this.clock = clock;
    }

    @Override
    public void afterPropertiesSet() {
        long every = properties.poll().toMillis();
        thread.scheduleWithFixedDelay(this::runAll, every, every, TimeUnit.MILLISECONDS);
    }

    private void runAll() {
        try {
            for (Backfill backfill : table.running()) {
                if (stopping) {
                    return;
                }
                registry.find(backfill.job()).map(RegisteredJob::job).ifPresent(job -> runLocked(backfill, job));
            }
        } catch (RuntimeException e) {
            // the database away, or the schema not there yet: the next poll tries again
            log.debug("could not work on the backfills error={}", e.toString());
        }
    }

    private void runLocked(Backfill backfill, PeriodicJob job) {
        Optional<SimpleLock> lock = locks.lock(new LockConfiguration(clock.instant(), LOCK_PREFIX + backfill.id(),
                lockFor(job), Duration.ZERO));
        if (lock.isEmpty()) {
            return;
        }
        try {
            run(backfill, job);
        } finally {
            lock.get().unlock();
        }
    }

    /**
     * @return how long a replica holds a backfill of {@code job}: a turn, then the last fire it starts, which holds the
     *     job's lock for up to the job's {@code lockAtMostFor}; so no other replica takes the backfill while a fire of
     *     it runs, however long the fire takes within its own lock
     */
    static Duration lockFor(PeriodicJob job) {
        return TURN.plus(job.lockAtMostFor()).plus(LOCK_MARGIN);
    }

    /** Fires the backfill's next instants for at most one {@link #TURN}. */
    private void run(Backfill started, PeriodicJob job) {
        // the row as it is now: another replica may have moved the cursor since the list was read
        Backfill backfill = table.find(started.job(), started.id()).orElse(null);
        if (backfill == null || !Backfill.RUNNING.equals(backfill.state())) {
            return;
        }
        Timetable timetable = Timetable.of(job.schedule());
        Instant turnEnds = clock.instant().plus(TURN);
        Instant from = backfill.cursor() == null ? backfill.from() : backfill.cursor().plusNanos(1);
        String node = node();
        while (!stopping && clock.instant().isBefore(turnEnds)) {
            List<ScheduledInstant> next = timetable.between(from, backfill.to(), SLICE).stream()
                    .filter(ScheduledInstant::fires).toList();
            if (next.isEmpty()) {
                if (table.end(backfill.id(), backfill.job(), Backfill.DONE, clock.instant())) {
                    Backfill done = table.find(backfill.job(), backfill.id()).orElse(backfill);
                    log.info("backfill done job={} id={} from={} to={} instants={} fired={} failed={}", done.job(),
                            done.id(), done.from(), done.to(), done.total(), done.fired(), done.failed());
                }
                return;
            }
            for (ScheduledInstant instant : next) {
                if (stopping || !clock.instant().isBefore(turnEnds) || !table.isRunning(backfill.id())) {
                    return;
                }
                fire(backfill, job, instant.at(), node);
                from = instant.at().plusNanos(1);
                pause();
            }
        }
    }

    private void fire(Backfill backfill, PeriodicJob job, Instant instant, String node) {
        FireResult result = null;
        // an instant the job's calendars leave out stays out, as the plan said: advanced over, not fired
        String excluded = calendars.exclusion(job, instant);
        if (excluded == null && !table.committed(job.name(), instant)) {
            result = firePath.fire(job, FireRequest.of(instant, FireTrigger.BACKFILL, node)
                    .withAttempt(table.nextAttempt(job.name(), instant)));
        }
        boolean fired = result != null && result.outcome() == FireOutcome.COMMITTED;
        boolean failed = result != null && result.outcome() == FireOutcome.FAILED;
        table.advance(backfill.id(), instant, fired, failed, clock.instant());
        log.debug("backfill instant job={} id={} scheduledAt={} outcome={}", job.name(), backfill.id(), instant,
                excluded != null ? "skipped: " + excluded : result == null ? "committed already" : result.outcome());
    }

    private void pause() {
        try {
            Thread.sleep(properties.spacing().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }

    private String node() {
        try {
            return scheduler.getSchedulerInstanceId();
        } catch (SchedulerException e) {
            return "unknown";
        }
    }

    @Override
    public void destroy() throws InterruptedException {
        stopping = true;
        thread.shutdown();
        if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
            thread.shutdownNow();
        }
    }
}
