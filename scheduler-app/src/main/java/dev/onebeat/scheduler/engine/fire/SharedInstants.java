package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.fire.SliceTable.Slice;
import dev.onebeat.scheduler.engine.fire.SliceTable.SliceClaim;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A large instant's work shared among the live replicas. Quartz gives a schedule's trigger to one replica, which would
 * fire every job of the instant alone; instead that replica (the acquirer) divides the jobs into slices
 * ({@code onebeat.fire.share.slice-jobs} each, {@link SliceTable}) and every replica, itself included, claims slices
 * one at a time and fires them as it would have ({@link Firing}). The others find them by a cheap look every
 * {@code onebeat.fire.share.poll-interval}.
 *
 * <p>The acquirer returns only once no slice of its instant is left: it fires those no replica holds, then waits for
 * those others hold and fires any a replica gave up (its process died, which frees its slice at once, or it stalled
 * past the lease). So the instant ends as an unshared fire ends, and a replica dying mid-instant leaves it to Quartz's
 * recovery as before, which joins the slices left. Two replicas firing one job for one instant (a slice taken over from
 * a stalled replica) meet at the job's lock and the fire ledger, which keeps one.
 *
 * <p>A replica fires at most {@link #CLAIMS_AT_ONCE} slices at once, whatever number of its Quartz threads acquired
 * large instants: each claim holds a connection of the pool while its batches take others. Once the replica winds down
 * for a stop ({@link #windDown}) it claims no more slices; those left stay in the table for the other replicas, or for
 * this one's next start.
 */
final class SharedInstants {

    // under the fire's name, where an operator reading how an instant fired looks
    private static final Logger log = LoggerFactory.getLogger(ScheduleFire.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(200);
    private static final Duration MAX_PAUSE = Duration.ofSeconds(5);
    /** Slices one replica fires at once: each fills the batch threads. */
    static final int CLAIMS_AT_ONCE = 2;
    /** Keep-alives stop after this: a slice whose fire hangs past it gives its claim up to another replica. */
    private static final Duration MAX_KEEP_ALIVE = Duration.ofHours(1);

    /** How a replica fires the jobs of a slice: as it fires an instant's jobs that are not shared. */
    interface Firing {
        void fire(List<PeriodicJob> jobs, FireRequest request);
    }

    private interface ClaimStep {
        SliceClaim claim() throws SQLException;
    }

    private final SliceTable table;
    private final FireProperties.Share share;
    private final JobRegistry registry;
    private final Clock clock;
    private final BooleanSupplier stopping;
    private final Firing firing;
    private final Counter firedAsAcquirer;
    private final Counter firedAsHelper;
    private final Semaphore claims = new Semaphore(CLAIMS_AT_ONCE);
    private final ScheduledExecutorService keepAlives;
    private volatile boolean windingDown;

    SharedInstants(SliceTable table, FireProperties.Share share, JobRegistry registry, Clock clock,
                   BooleanSupplier stopping, Firing firing, MeterRegistry meters) {
        this.table = table;
        this.share = share;
        this.registry = registry;
        this.clock = clock;
        this.stopping = stopping;
        this.firing = firing;
        this.firedAsAcquirer = slices(meters, "acquirer");
        this.firedAsHelper = slices(meters, "helper");
        this.keepAlives = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "onebeat-slice-claims");
            thread.setDaemon(true);
            return thread;
        });
    }

    private static Counter slices(MeterRegistry meters, String role) {
        return Counter.builder("onebeat.fire.slices").description("Slices of shared instants this replica fired, as "
                + "the replica that acquired the instant or as a helper").tag("role", role).register(meters);
    }

    /** @return whether an instant of these jobs is shared among the replicas */
    boolean shares(List<PeriodicJob> jobs, FireRequest request) {
        // a replica that stops fires an instant that reaches it now alone, rather than leave its slices to the others
        return !windingDown && request.run() == null && share.shares(jobs.size());
    }

    /** From now on no slice is claimed here: the replica stops, and leaves what is left to the others. */
    void windDown() {
        windingDown = true;
    }

    /** Slices are claimed and instants shared again: the replica was stopped and is started again. */
    void windUp() {
        windingDown = false;
    }

    /**
     * Fires an instant's jobs with the help of the other replicas, and returns once every slice of it has fired (or,
     * when the replica winds down, once the slice it fires has).
     *
     * @return jobs of slices fired here that this replica does not register (a recovery joining another replica's
     *     slices during a rolling deploy), to hand back to the cluster
     */
    List<String> fire(String scheduleKey, List<PeriodicJob> jobs, FireRequest request) {
        Instant scheduledAt = request.scheduledAt();
        long started = System.nanoTime();
        Map<String, PeriodicJob> byName = new HashMap<>(jobs.size() * 2);
        List<List<String>> slices = new ArrayList<>();
        List<String> slice = new ArrayList<>(share.sliceJobs());
        for (PeriodicJob job : jobs) {
            byName.put(job.name(), job);
            slice.add(job.name());
            if (slice.size() == share.sliceJobs()) {
                slices.add(slice);
                slice = new ArrayList<>(share.sliceJobs());
            }
        }
        if (!slice.isEmpty()) {
            slices.add(slice);
        }
        int created;
        try {
            created = table.create(scheduleKey, scheduledAt, request.trigger(), request.node(), slices);
        } catch (RuntimeException e) {
            // the ledger makes a fire here alone as safe as a shared one, and it is the only way on
            log.warn("instant not shared, fired here alone schedule={} scheduledAt={} jobs={} error={}", scheduleKey,
                    scheduledAt, jobs.size(), e.toString());
            firing.fire(jobs, request);
            return List.of();
        }
        Function<String, PeriodicJob> own = name -> byName.containsKey(name) ? byName.get(name)
                : registry.find(name).map(RegisteredJob::job).orElse(null);
        Set<String> unregistered = new LinkedHashSet<>();
        BiConsumer<Instant, List<String>> collect = (at, names) -> unregistered.addAll(names);
        int here = 0;
        Duration pause = FIRST_PAUSE;
        while (!windingDown) {
            try {
                int fired = fireClaim(() -> table.claimNext(share.lease(), scheduleKey, scheduledAt), own, request,
                        null, collect);
                if (fired == 0) {
                    // what is left is held by other replicas: wait for one, and fire it if its replica gave it up
                    fired = fireClaim(() -> table.claimLeft(share.lease(), scheduleKey, scheduledAt), own, request,
                            null, collect);
                    if (fired == 0) {
                        break;
                    }
                }
                here += fired;
                pause = FIRST_PAUSE;
            } catch (SQLException e) {
                if (!SliceTable.stillHeld(e) && !retry(scheduleKey, scheduledAt, e, pause)) {
                    break;
                }
                pause = SliceTable.stillHeld(e) ? FIRST_PAUSE : Pauses.doubled(pause, MAX_PAUSE);
            } catch (RuntimeException e) {
                if (!retry(scheduleKey, scheduledAt, e, pause)) {
                    break;
                }
                pause = Pauses.doubled(pause, MAX_PAUSE);
            }
        }
        firedAsAcquirer.increment(here);
        log.info("instant shared with the other replicas schedule={} scheduledAt={} jobs={} slices={} firedHere={} "
                        + "tookMs={}{}", scheduleKey, scheduledAt, jobs.size(),
                created == 0 ? "those another fire of the instant left" : created, here,
                (System.nanoTime() - started) / 1_000_000, windingDown ? " (stopping: the rest left to the others)" : "");
        return List.copyOf(unregistered);
    }

    /** @return whether to try again after the pause: not once the replica stops or the instant is an hour old */
    private boolean retry(String scheduleKey, Instant scheduledAt, Exception e, Duration pause) {
        if (stopping.getAsBoolean() || windingDown
                || clock.instant().isAfter(scheduledAt.plus(PeriodicJob.DEFAULT_CATCH_UP_WINDOW))) {
            log.error("shared instant's slices left to the other replicas and to a recovery schedule={} scheduledAt={} "
                    + "error={}", scheduleKey, scheduledAt, e.toString(), e);
            return false;
        }
        log.warn("shared instant's slices not read, trying again in {} ms schedule={} scheduledAt={} error={}",
                pause.toMillis(), scheduleKey, scheduledAt, e.toString());
        return Pauses.sleep(pause);
    }

    /**
     * Claims one slice of any replica's instant, fires it and deletes it.
     *
     * @param node this replica, recorded as the firing one
     * @param handBack called, before the slice is deleted, with the slice's instant and its jobs this replica does not
     *     register, to hand them to the cluster for that instant
     * @return whether a slice was fired; false when none was free or the replica winds down
     * @throws SQLException when the claim could not be made or was lost
     */
    boolean helpOnce(String node, BiConsumer<Instant, List<String>> handBack) throws SQLException {
        if (windingDown || !table.anyWaiting()) {
            return false;
        }
        int fired = fireClaim(() -> table.claimAny(share.lease()),
                name -> registry.find(name).map(RegisteredJob::job).orElse(null), null, node, handBack);
        firedAsHelper.increment(fired);
        return fired > 0;
    }

    /**
     * Claims (one slice at most), fires and deletes, keeping the claim alive meanwhile.
     *
     * @param request the acquirer's request, or null for a helper's, made from the slice for {@code node}
     * @param unregistered given the slice's jobs this replica does not register, before the slice is deleted
     * @return slices fired: 0 or 1
     */
    private int fireClaim(ClaimStep step, Function<String, PeriodicJob> resolve, FireRequest request, String node,
                          BiConsumer<Instant, List<String>> unregistered) throws SQLException {
        // not interruptible: a fire that has begun finishes, as Quartz expects of a job (a stop winds sharing down instead)
        claims.acquireUninterruptibly();
        try (SliceClaim claim = step.claim()) {
            for (Slice slice : claim.slices()) {
                List<PeriodicJob> jobs = new ArrayList<>(slice.jobs().size());
                List<String> unknown = new ArrayList<>();
                for (String name : slice.jobs()) {
                    PeriodicJob job = resolve.apply(name);
                    if (job == null) {
                        unknown.add(name);
                    } else {
                        jobs.add(job);
                    }
                }
                keptAlive(claim, () -> {
                    firing.fire(jobs, request != null ? request
                            : FireRequest.of(slice.scheduledAt(), slice.trigger(), node));
                    if (!unknown.isEmpty()) {
                        unregistered.accept(slice.scheduledAt(), unknown);
                    }
                });
            }
            claim.done();
            return claim.slices().size();
        } finally {
            claims.release();
        }
    }

    /** Runs {@code fire} while the claim's transaction is kept alive every third of the lease. */
    private void keptAlive(SliceClaim claim, Runnable fire) {
        long every = Math.max(1, share.lease().toMillis() / 3);
        long until = System.nanoTime() + MAX_KEEP_ALIVE.toNanos();
        ScheduledFuture<?> renewal = keepAlives.scheduleWithFixedDelay(() -> {
            if (System.nanoTime() < until) {
                claim.keepAlive();
            }
        }, every, every, TimeUnit.MILLISECONDS);
        try {
            fire.run();
        } finally {
            renewal.cancel(false);
        }
    }

    void close() {
        keepAlives.shutdownNow();
    }
}
