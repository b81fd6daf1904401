package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.calendar.Calendars;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.registry.ScheduleMembers;
import dev.onebeat.scheduler.engine.schedule.FireMoments;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Fires every job of one schedule for one of its instants: the jobs the catalog lists as members at
 * that instant (neither paused nor orphaned). A paused member's instant, and an instant older than a
 * member's catch-up window (a late recovery, a replay of missed instants), are recorded skipped for it.
 *
 * <ul>
 *   <li>jobs defined by data alone (configuration, the admin API) fire in batches of
 *       {@code onebeat.fire.batch.jobs} per transaction ({@link BatchFire}), several batches at once on the
 *       batch threads, or, when they fit in one batch, on the calling thread;</li>
 *   <li>a job written in code, which has a schedule trigger of its own, fires alone ({@link FirePath}) on
 *       the calling thread, so a slow one holds up no other; the jobs of a batch whose lock was busy or
 *       whose transaction failed fire alone too, on threads of their own;</li>
 *   <li>jobs this replica does not register (a rolling deploy) are returned, to be handed back to the
 *       cluster.</li>
 * </ul>
 * It returns once every fire it started has ended, so that a replica dying meanwhile leaves the
 * instant to Quartz's recovery, which runs it again: the ledger turns what had committed into
 * duplicates and fires the rest.
 */
@Component
public class ScheduleFire implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ScheduleFire.class);
    /** How long past a wave's first planned moment it starts, gathering the jobs planned in between. */
    static final Duration WAVE_TICK = Duration.ofMillis(100);

    private final MemberReads memberReads;
    private final JobRegistry registry;
    private final BatchFire batches;
    private final FirePath firePath;
    private final FireProperties properties;
    private final ThreadPoolExecutor batchThreads;
    private final ThreadPoolExecutor singleThreads;

    private final FireAttempts attempts;
    private final FireFaults faults;
    private final Clock clock;
    private final Calendars calendars;
    private volatile boolean stopping;
    private final MomentWaits moments;
    private final SharedInstants shared;

    ScheduleFire(ScheduleMembers members, JobRegistry registry, BatchFire batches, FirePath firePath, FireFaults faults,
                 FireServices services, Calendars calendars, SliceTable slices, MeterRegistry meters) {
        FireProperties properties = services.properties();
        Clock clock = services.clock();
        this.calendars = calendars;
        this.attempts = services.attempts();
        this.faults = faults;
        this.clock = clock;
        this.moments = services.moments();
        this.memberReads = new MemberReads(members, registry, faults, clock, () -> stopping);
        this.registry = registry;
        this.batches = batches;
        this.firePath = firePath;
        this.properties = properties;
        this.batchThreads = pool("onebeat-batch-", properties.batch().threads());
        this.singleThreads = pool("onebeat-fire-", properties.threads());
        this.shared = new SharedInstants(slices, properties.share(), registry, clock, () -> stopping, this::fireNow,
                meters);
    }

    /**
     * What firing one instant of a schedule did.
     *
     * @param members the jobs due, paused ones included
     * @param unregistered those this replica does not register, left to the caller
     */
    public record Outcome(int members, List<String> unregistered) {
    }

    /**
     * @param scheduleKey the schedule
     * @param request its instant, why it fires now and this replica's id
     * @return what happened; the fires' failures are logged and counted, never thrown
     */
    public Outcome fire(String scheduleKey, FireRequest request) {
        return fire(scheduleKey, request, Missed.NONE);
    }

    /**
     * Fires an instant of a schedule and settles the instants it stands in for: after a misfire, those missed since
     * the schedule last fired, fired or skipped per job as its misfire policy says ({@link CatchUpPlan}); and times
     * a daylight-saving gap removed. Missed instants that fire go first, oldest first,
     * {@code onebeat.fire.catch-up-spacing} apart, each with its own keys.
     *
     * @param missed what the fire settles besides its own instant
     */
    public Outcome fire(String scheduleKey, FireRequest request, Missed missed) {
        Instant scheduledAt = request.scheduledAt();
        FireTrigger trigger = request.trigger();
        String node = request.node();
        long began = System.nanoTime();
        Instant entered = clock.instant();
        ScheduleMembers.Members due = memberReads.due(scheduleKey, scheduledAt, node, missed);
        long read = System.nanoTime();
        if (due == null) {
            return new Outcome(0, List.of());
        }
        List<String> members = due.firing();
        attempts.skipped(due.paused(), scheduledAt, FireAttempts.SkipReason.PAUSED, trigger, node);
        List<PeriodicJob> registered = new ArrayList<>();
        List<String> unregistered = new ArrayList<>();
        for (String name : members) {
            registry.find(name).ifPresentOrElse(job -> registered.add(job.job()), () -> unregistered.add(name));
        }
        CatchUpPlan plan = CatchUpPlan.of(memberReads.membership(scheduleKey, scheduledAt, missed, registered,
                        unregistered, due, node), scheduledAt, missed, clock.instant());
        attempts.skipped(plan.skips(), trigger, node);
        if (log.isDebugEnabled()) {
            // where an instant's time goes before its first transaction: at 100,000 jobs 0.2-0.9 s in all (issue 29)
            log.debug("instant planned schedule={} scheduledAt={} jobs={} enteredAfterMs={} membersReadInMs={}"
                            + " plannedInMs={}", scheduleKey, scheduledAt, members.size(),
                    Duration.between(scheduledAt, entered).toMillis(), (read - began) / 1_000_000,
                    (System.nanoTime() - read) / 1_000_000);
        }
        if (missed.afterMisfire()) {
            log.info("missed instants settled schedule={} scheduledAt={} missed={} instantsFiring={} skipped={}",
                    scheduleKey, scheduledAt, missed.passedOver().size() + 1, plan.fires().keySet(), plan.skipped());
        }
        if (missed.unrecorded() > 0) {
            log.warn("missed instants too old to record one by one schedule={} count={} recordedFrom={}", scheduleKey,
                    missed.unrecorded(), missed.passedOver().isEmpty() ? scheduledAt : missed.passedOver().get(0).at());
        }
        boolean first = true;
        for (Map.Entry<Instant, List<PeriodicJob>> instant : plan.fires().entrySet()) {
            if (!first) {
                // an interrupt (shutdown) cuts the wait, not the catch-up
                Pauses.sleep(properties.catchUpSpacing());
            }
            first = false;
            // the instant itself may be shared with the other replicas; those a misfire passed over fire here
            unregistered.addAll(fireAt(instant.getValue(), request.at(instant.getKey()),
                    instant.getKey().equals(scheduledAt) ? scheduleKey : null));
        }
        if (!unregistered.isEmpty()) {
            log.debug("jobs not registered on this replica schedule={} scheduledAt={} jobs={}", scheduleKey,
                    scheduledAt, unregistered.size());
        }
        return new Outcome(members.size() + due.paused().size(), unregistered);
    }

    /**
     * Fires the jobs of a group hand-back for its instant ({@code HandBack#recover}: fires whose commits a failed-over
     * database server lost): by the instant's calendars, planned moments, catch-up windows and batches, as the
     * schedule's own fire of it, but only these jobs and never shared, so that thousands of them cost a few
     * transactions, not a fire each. Their membership and pauses are those the look found, not read again (as for a
     * lost fire handed back alone). The ledger lets one fire of each commit: one committed meanwhile is a duplicate.
     *
     * @param names the jobs
     * @param request the instant, as a {@link FireTrigger#RECOVERY}
     * @return those this replica does not register, left to the caller
     */
    public List<String> fireHandedBack(List<String> names, FireRequest request) {
        List<PeriodicJob> registered = new ArrayList<>();
        List<String> unregistered = new ArrayList<>();
        for (String name : names) {
            registry.find(name).ifPresentOrElse(job -> registered.add(job.job()), () -> unregistered.add(name));
        }
        if (!registered.isEmpty()) {
            fireAt(registered, request, null);
        }
        log.info("lost fires handed back together done scheduledAt={} trigger={} jobs={} unregistered={}",
                request.scheduledAt(), request.trigger().column(), registered.size(), unregistered.size());
        return unregistered;
    }

    /**
     * Fires {@code jobs} for one instant, each no earlier than its planned moment ({@link FireMoments}: the instant
     * plus its spread and jitter): in waves, each wave the jobs whose moment has come, the wait for the next wave
     * {@link #WAVE_TICK} past its first moment so that a wave gathers the jobs of a tick into shared transactions. A
     * recovery or a misfire waits for the moments still to come in the same way; those passed fire at once. A replica
     * that stops meanwhile fires the jobs still waiting at once ({@link #fireWaitingNow}), so none is lost.
     *
     * <p>An instant with many jobs none of which waits is shared with the other replicas ({@link SharedInstants}).
     *
     * @param sharedAs the schedule, when the instant may be shared; null to fire it here
     * @return jobs of a shared instant's slices that this replica does not register
     */
    private List<String> fireAt(List<PeriodicJob> jobs, FireRequest request, String sharedAs) {
        long began = System.nanoTime();
        Map<String, List<String>> excluded = calendars.excluded(jobs, request.scheduledAt());
        if (!excluded.isEmpty()) {
            // a calendar's or the active period's choice, recorded as such: neither fired nor missed
            excluded.forEach((reason, names) -> attempts.skipped(names, request.scheduledAt(), reason,
                    request.trigger(), request.node()));
            Set<String> left = excluded.values().stream().flatMap(List::stream).collect(Collectors.toSet());
            jobs = jobs.stream().filter(job -> !left.contains(job.name())).toList();
            log.debug("jobs left out by their calendars scheduledAt={} reasons={}", request.scheduledAt(),
                    excluded.keySet());
        }
        if (log.isDebugEnabled()) {
            log.debug("calendars read scheduledAt={} jobs={} inMs={}", request.scheduledAt(), jobs.size(),
                    (System.nanoTime() - began) / 1_000_000);
        }
        if (!request.waitsForPlannedMoment() || jobs.stream().noneMatch(FireMoments::moves)) {
            if (sharedAs != null && shared.shares(jobs, request)) {
                return shared.fire(sharedAs, jobs, request);
            }
            fireNow(jobs, request);
            return List.of();
        }
        Instant scheduledAt = request.scheduledAt();
        List<Map.Entry<Instant, PeriodicJob>> planned = new ArrayList<>(jobs.size());
        for (PeriodicJob job : jobs) {
            planned.add(Map.entry(FireMoments.plannedAt(job, scheduledAt), job));
        }
        planned.sort(Map.Entry.comparingByKey());
        int waves = 0;
        for (int from = 0; from < planned.size(); waves++) {
            Instant first = planned.get(from).getKey();
            if (first.isAfter(clock.instant())) {
                moments.await(first.plus(WAVE_TICK));
            }
            Instant now = clock.instant();
            int to = from + 1;
            while (to < planned.size() && (moments.hurrying() || !planned.get(to).getKey().isAfter(now))) {
                to++;
            }
            fireNow(planned.subList(from, to).stream().map(Map.Entry::getValue).toList(), request);
            from = to;
        }
        log.debug("instant fired in waves scheduledAt={} jobs={} waves={} lastPlanned={}", scheduledAt, jobs.size(),
                waves, planned.get(planned.size() - 1).getKey());
        return List.of();
    }

    /**
     * Claims one slice of a shared instant (any replica's, this one's too) that no replica holds, fires it here and
     * marks it fired; called by this replica's helper while it runs.
     *
     * @param node this replica's id, recorded as the firing one
     * @param handBack given the slice's instant and its jobs this replica does not register, to hand to the cluster,
     *     before the slice is marked fired
     * @return whether a slice was fired; false when none was free, or this replica stops
     * @throws SQLException when the database could not be reached or the claim was lost: the slice is another
     *     replica's to fire
     */
    public boolean helpWithSlice(String node, BiConsumer<Instant, List<String>> handBack) throws SQLException {
        return shared.helpOnce(node, handBack);
    }

    /**
     * Fires now the jobs waiting for their planned moment (a jitter or a spread), early, instead of at their moments:
     * called once the replica takes no more fires and waits for those running, so that a stop neither loses them nor
     * waits out a spread. From then on this replica claims no slice of a shared instant: its fire of one ends with the
     * slice it fires, and leaves the rest to the other replicas (or to its next start).
     */
    public void fireWaitingNow() {
        moments.fireWaitingNow();
        stopSharing();
    }

    /**
     * From now on this replica claims no slice of a shared instant, and fires an instant that reaches it alone: the
     * slices of its shared instants not claimed yet are left to the other replicas, or to its next start. Called as
     * the replica begins to stop.
     */
    public void stopSharing() {
        shared.windDown();
    }

    /**
     * Undoes {@link #fireWaitingNow} and {@link #stopSharing}: fires wait for their planned moments again and large
     * instants are shared again. Called as the replica starts taking fires, before Quartz starts: a context stopped
     * and started again (Spring's {@code stop()} and {@code start()}, a test context paused in the cache) would
     * otherwise fire every jitter and spread at once, and share no instant, until its process ends.
     */
    public void takeFiresAgain() {
        moments.waitAgain();
        shared.windUp();
    }

    /** Fires {@code jobs} for one instant now: in batches, or alone; an instant older than a job's window is skipped. */
    private void fireNow(List<PeriodicJob> jobs, FireRequest request) {
        Instant scheduledAt = request.scheduledAt();
        List<PeriodicJob> batched = new ArrayList<>();
        List<PeriodicJob> alone = new ArrayList<>();
        List<String> tooOld = new ArrayList<>();
        Instant now = clock.instant();
        for (PeriodicJob job : jobs) {
            if (scheduledAt.plus(job.catchUpWindow()).isBefore(now)) {
                tooOld.add(job.name());
            } else if (RegisteredJob.isDeclarative(job) && job.overlapPolicy() != OverlapPolicy.ALLOW) {
                // a batch locks each job's one lock row; instants of a job that allows overlaps lock their own
                batched.add(job);
            } else {
                alone.add(job);
            }
        }
        if (!tooOld.isEmpty()) {
            log.warn("instant older than the jobs' catch-up window, skipped scheduledAt={} trigger={} jobs={}",
                    scheduledAt, request.trigger().column(), tooOld.size() <= 10 ? tooOld : tooOld.size());
            attempts.skipped(tooOld, scheduledAt, FireAttempts.SkipReason.OUTSIDE_CATCH_UP_WINDOW, request.trigger(),
                    request.node());
        }
        List<Future<BatchFire.Outcome>> outcomes = new ArrayList<>();
        int size = properties.batch().sizeFor(batched.size());
        if (alone.isEmpty() && !batched.isEmpty() && batched.size() <= size) {
            // one batch and nothing else to do: fired on this (Quartz's) thread, so that many small schedules due
            // together are not queued behind the batch threads (their fires began up to 120 ms late, 10 at a time)
            FutureTask<BatchFire.Outcome> inline = new FutureTask<>(() -> batches.fire(batched, request));
            inline.run();
            outcomes.add(inline);
        } else {
            for (int from = 0; from < batched.size(); from += size) {
                List<PeriodicJob> batch = batched.subList(from, Math.min(batched.size(), from + size));
                outcomes.add(batchThreads.submit(() -> batches.fire(batch, request)));
            }
        }
        alone.forEach(job -> firePath.fire(job, request));
        List<Future<?>> singles = new ArrayList<>();
        for (Future<BatchFire.Outcome> outcome : outcomes) {
            BatchFire.Outcome done = await(outcome);
            if (done != null) {
                done.notFired().forEach(job -> singles.add(singleThreads.submit(
                        () -> firePath.fire(job, request))));
            }
        }
        singles.forEach(ScheduleFire::await);
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            // the fire goes on in its own thread; this one only stops waiting for it
            Thread.currentThread().interrupt();
            log.warn("stopped waiting for a fire: interrupted");
            return null;
        } catch (ExecutionException e) {
            // fires report their own failures; reaching here is a bug, logged rather than lost
            log.error("fire thread failed error={}", e.getCause().toString(), e.getCause());
            return null;
        }
    }

    private static ThreadPoolExecutor pool(String prefix, int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                },
                // once shut down (the context closing while Quartz still runs a fire), a fire still arriving runs
                // on its caller's thread: Java's CallerRunsPolicy would drop it then, and its caller wait forever
                (task, executor) -> task.run());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @Override
    public void destroy() throws InterruptedException {
        stopping = true;
        shared.close();
        batchThreads.shutdown();
        singleThreads.shutdown();
        batchThreads.awaitTermination(30, TimeUnit.SECONDS);
        singleThreads.awaitTermination(30, TimeUnit.SECONDS);
    }
}
