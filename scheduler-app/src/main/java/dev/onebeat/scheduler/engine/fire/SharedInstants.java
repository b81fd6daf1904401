package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.fire.SliceTable.Slice;
import dev.onebeat.scheduler.engine.fire.SliceTable.SliceClaim;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * those others hold and fires any a replica gave up (it died, which frees its slice at once, or stalled past the
 * lease). So the instant ends as an unshared fire ends, and a replica dying mid-instant leaves it to Quartz's recovery
 * as before, which joins the slices left. Two replicas firing one job for one instant (a slice taken over from a
 * stalled replica) meet at the job's lock and the fire ledger, which keeps one.
 */
final class SharedInstants {

    // under the fire's name, where an operator reading how an instant fired looks
    private static final Logger log = LoggerFactory.getLogger(ScheduleFire.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(200);
    private static final Duration MAX_PAUSE = Duration.ofSeconds(5);

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

    SharedInstants(SliceTable table, FireProperties.Share share, JobRegistry registry, Clock clock,
                   BooleanSupplier stopping, Firing firing) {
        this.table = table;
        this.share = share;
        this.registry = registry;
        this.clock = clock;
        this.stopping = stopping;
        this.firing = firing;
    }

    /** @return whether an instant of these jobs is shared among the replicas */
    boolean shares(List<PeriodicJob> jobs, FireRequest request) {
        return request.run() == null && share.shares(jobs.size());
    }

    /**
     * Fires an instant's jobs with the help of the other replicas, and returns once every slice of it has fired.
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
        int here = 0;
        Duration pause = FIRST_PAUSE;
        while (true) {
            try {
                for (int fired = 1; fired > 0; here += fired) {
                    fired = fireClaim(() -> table.claimNext(share.lease(), scheduleKey, scheduledAt), own, request,
                            unregistered);
                }
                // what is left is held by other replicas: wait for them, and fire what one gave up
                int left = fireClaim(() -> table.claimLeft(share.lease(), share.lease().multipliedBy(2), scheduleKey,
                        scheduledAt), own, request, unregistered);
                here += left;
                if (left == 0) {
                    break;
                }
            } catch (SQLException | RuntimeException e) {
                if (stopping.getAsBoolean() || clock.instant().isAfter(scheduledAt.plus(
                        PeriodicJob.DEFAULT_CATCH_UP_WINDOW))) {
                    log.error("shared instant's slices left to the other replicas and to a recovery schedule={} "
                            + "scheduledAt={} error={}", scheduleKey, scheduledAt, e.toString(), e);
                    break;
                }
                log.warn("shared instant's slices not read, trying again in {} ms schedule={} scheduledAt={} error={}",
                        pause.toMillis(), scheduleKey, scheduledAt, e.toString());
                Pauses.sleep(pause);
                pause = Pauses.doubled(pause, MAX_PAUSE);
            }
        }
        log.info("instant shared with the other replicas schedule={} scheduledAt={} jobs={} slices={} firedHere={} "
                        + "tookMs={}", scheduleKey, scheduledAt, jobs.size(),
                created == 0 ? "those another fire of the instant left" : created, here,
                (System.nanoTime() - started) / 1_000_000);
        return List.copyOf(unregistered);
    }

    /**
     * Claims one slice of any replica's instant, fires it and deletes it.
     *
     * @param node this replica, recorded as the firing one
     * @return the slice's instant and its jobs left unregistered here; empty when no slice was free
     * @throws SQLException when the claim could not be made or was lost
     */
    Optional<ScheduleFire.Helped> helpOnce(String node) throws SQLException {
        if (!table.anyWaiting()) {
            return Optional.empty();
        }
        Set<String> unregistered = new LinkedHashSet<>();
        Instant[] scheduledAt = new Instant[1];
        int fired = fireClaim(() -> {
            SliceClaim claim = table.claimAny(share.lease());
            if (!claim.slices().isEmpty()) {
                scheduledAt[0] = claim.slices().get(0).scheduledAt();
            }
            return claim;
        }, name -> registry.find(name).map(RegisteredJob::job).orElse(null), null, unregistered, node);
        return fired == 0 ? Optional.empty() : Optional.of(new ScheduleFire.Helped(scheduledAt[0], List.copyOf(unregistered)));
    }

    private int fireClaim(ClaimStep step, Function<String, PeriodicJob> resolve, FireRequest request,
                          Set<String> unregistered) throws SQLException {
        return fireClaim(step, resolve, request, unregistered, null);
    }

    /**
     * @param request the acquirer's request, or null for a helper's, made from each slice for {@code node}
     * @return slices fired
     */
    private int fireClaim(ClaimStep step, Function<String, PeriodicJob> resolve, FireRequest request,
                          Set<String> unregistered, String node) throws SQLException {
        try (SliceClaim claim = step.claim()) {
            for (Slice slice : claim.slices()) {
                List<PeriodicJob> jobs = new ArrayList<>(slice.jobs().size());
                for (String name : slice.jobs()) {
                    PeriodicJob job = resolve.apply(name);
                    if (job == null) {
                        unregistered.add(name);
                    } else {
                        jobs.add(job);
                    }
                }
                firing.fire(jobs, request != null ? request
                        : FireRequest.of(slice.scheduledAt(), slice.trigger(), node));
            }
            claim.done();
            return claim.slices().size();
        }
    }
}
