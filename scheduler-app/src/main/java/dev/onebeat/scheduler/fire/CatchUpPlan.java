package dev.onebeat.scheduler.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.fire.FireAttempts.SkipReason;
import dev.onebeat.scheduler.schedule.ScheduledInstant;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one fire of a schedule does, job by job, with its own instant and the instants it settles
 * ({@link Missed}): which instants each job fires, oldest first, and which are recorded as skipped, and why.
 *
 * <ul>
 *   <li>a time a daylight-saving gap removed ({@code gap=skip}) is skipped for every job;</li>
 *   <li>after a misfire, each job's misfire policy decides: {@code FIRE_ONCE_NOW} fires the latest instant and
 *       skips the earlier ones as superseded; {@code SKIP_MISSED} fires none of them; {@code FIRE_ALL_MISSED}
 *       fires the most recent {@link PeriodicJob#maxCatchUp()} of those inside the job's catch-up window and
 *       skips the others, as outside the window or beyond max-catch-up;</li>
 *   <li>a paused job's missed instants are skipped as paused.</li>
 * </ul>
 * The fire's own instant is fired unless the policy skips it: its catch-up window and pause are checked when it
 * fires, as for any fire.
 */
final class CatchUpPlan {

    private final NavigableMap<Instant, List<PeriodicJob>> fires = new TreeMap<>();
    private final Map<SkipReason, NavigableMap<Instant, List<String>>> skips = new EnumMap<>(SkipReason.class);

    private CatchUpPlan() {
    }

    /**
     * @param jobs the registered, unpaused members of the schedule at {@code instant}
     * @param paused the paused members
     * @param instant the fire's own instant
     * @param missed what it settles besides
     * @param now the time of the decision, against which catch-up windows are measured
     */
    static CatchUpPlan of(List<PeriodicJob> jobs, List<String> paused, Instant instant, Missed missed, Instant now) {
        CatchUpPlan plan = new CatchUpPlan();
        List<Instant> missedFiring = new ArrayList<>();
        List<String> names = jobs.stream().map(PeriodicJob::name).toList();
        for (ScheduledInstant passed : missed.passedOver()) {
            if (passed.fires()) {
                missedFiring.add(passed.at());
            } else {
                plan.skip(names, passed.at(), SkipReason.DST_GAP);
                plan.skip(paused, passed.at(), SkipReason.DST_GAP);
            }
        }
        missedFiring.forEach(at -> plan.skip(paused, at, SkipReason.PAUSED));
        for (PeriodicJob job : jobs) {
            if (!missed.afterMisfire()) {
                plan.fire(job, instant);
                continue;
            }
            switch (job.misfirePolicy()) {
                case FIRE_ONCE_NOW -> {
                    missedFiring.forEach(at -> plan.skip(job.name(), at, SkipReason.SUPERSEDED));
                    plan.fire(job, instant);
                }
                case SKIP_MISSED -> {
                    missedFiring.forEach(at -> plan.skip(job.name(), at, SkipReason.MISSED));
                    if (missed.latestMissed()) {
                        plan.skip(job.name(), instant, SkipReason.MISSED);
                    } else {
                        plan.fire(job, instant);
                    }
                }
                case FIRE_ALL_MISSED -> plan.catchUp(job, missedFiring, instant, now);
            }
        }
        return plan;
    }

    private void catchUp(PeriodicJob job, List<Instant> missedFiring, Instant instant, Instant now) {
        List<Instant> all = new ArrayList<>(missedFiring);
        all.add(instant);
        List<Instant> inside = all.stream().filter(at -> !at.plus(job.catchUpWindow()).isBefore(now)).toList();
        Set<Instant> chosen = new HashSet<>(inside.subList(Math.max(0, inside.size() - job.maxCatchUp()), inside.size()));
        for (Instant at : all) {
            if (chosen.contains(at)) {
                fire(job, at);
            } else {
                skip(job.name(), at, inside.contains(at) ? SkipReason.BEYOND_MAX_CATCH_UP
                        : SkipReason.OUTSIDE_CATCH_UP_WINDOW);
            }
        }
    }

    private void fire(PeriodicJob job, Instant at) {
        fires.computeIfAbsent(at, key -> new ArrayList<>()).add(job);
    }

    private void skip(String job, Instant at, SkipReason reason) {
        skips.computeIfAbsent(reason, key -> new TreeMap<>()).computeIfAbsent(at, key -> new ArrayList<>()).add(job);
    }

    private void skip(Collection<String> jobs, Instant at, SkipReason reason) {
        jobs.forEach(job -> skip(job, at, reason));
    }

    /** @return the instants to fire, earliest first, each with the jobs that fire it */
    NavigableMap<Instant, List<PeriodicJob>> fires() {
        return fires;
    }

    /** @return the instants to record as skipped: by reason, then by instant, the jobs */
    Map<SkipReason, NavigableMap<Instant, List<String>>> skips() {
        return skips;
    }

    /** @return how many (job, instant) pairs are skipped */
    int skipped() {
        return skips.values().stream().flatMap(byInstant -> byInstant.values().stream()).mapToInt(List::size).sum();
    }
}
