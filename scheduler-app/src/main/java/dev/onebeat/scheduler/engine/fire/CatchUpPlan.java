package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.fire.FireAttempts.SkipReason;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one fire of a schedule does, job by job, with its own instant and the instants it settles
 * ({@link Missed}): which instants each job fires, oldest first, and which are recorded as skipped, and why.
 * Each instant is planned with the jobs that were members of the schedule at that instant ({@link Membership}): a
 * job that joined during an outage has nothing of the instants before it joined, and a job that left during it
 * (moved to another schedule) has the instants it was a member of, its latest one standing for the fire's own.
 *
 * <ul>
 *   <li>a time a daylight-saving gap removed ({@code gap=skip}) is skipped for every member;</li>
 *   <li>after a misfire, each job's misfire policy decides over its own instants: {@code FIRE_ONCE_NOW} fires the
 *       latest and skips the earlier ones as superseded; {@code SKIP_MISSED} fires none of the missed ones;
 *       {@code FIRE_ALL_MISSED} fires the most recent {@link PeriodicJob#maxCatchUp()} of those inside the job's
 *       catch-up window and skips the others, as outside the window or beyond max-catch-up;</li>
 *   <li>a member paused at a missed instant has it skipped as paused;</li>
 *   <li>a member this replica does not register has each missed instant it was a member of skipped as missed, not
 *       registered here: its misfire policy is unknown here (its fire of the fire's own instant is handed back to
 *       the cluster by the caller).</li>
 * </ul>
 * The fire's own instant is fired unless the policy skips it: its catch-up window and pause are checked when it
 * fires, as for any fire.
 */
final class CatchUpPlan {

    /** Who was a member of the schedule at an instant. */
    interface Membership {

        /** @return the registered members at {@code at} that are not paused then */
        List<PeriodicJob> firing(Instant at);

        /** @return the members paused at {@code at}, by name */
        List<String> paused(Instant at);

        /** @return the unpaused members at {@code at} that this replica does not register, by name */
        default List<String> unregistered(Instant at) {
            return List.of();
        }

        /**
         * The members of the fire's own instant standing for every missed instant, when who was a member at each
         * could not be read: each from the instant it joined the schedule on, so that a job that joined during the
         * outage has nothing, fired or skipped, of the instants before it existed on it.
         *
         * @param jobs the registered, unpaused members of the fire's own instant
         * @param paused its paused members
         * @param unregistered its unpaused members this replica does not register
         * @param since by name, when a member joined the schedule; absent for one that left it after the fire's
         *     own instant (a member of every instant before)
         */
        static Membership fromOwnInstant(List<PeriodicJob> jobs, List<String> paused, List<String> unregistered,
                                         Map<String, Instant> since) {
            return new Membership() {
                @Override
                public List<PeriodicJob> firing(Instant at) {
                    return jobs.stream().filter(job -> memberAt(job.name(), at)).toList();
                }

                @Override
                public List<String> paused(Instant at) {
                    return paused.stream().filter(name -> memberAt(name, at)).toList();
                }

                @Override
                public List<String> unregistered(Instant at) {
                    return unregistered.stream().filter(name -> memberAt(name, at)).toList();
                }

                private boolean memberAt(String name, Instant at) {
                    Instant joined = since.get(name);
                    return joined == null || !joined.isAfter(at);
                }
            };
        }

        /** @return the same members at every instant */
        static Membership constant(List<PeriodicJob> jobs, List<String> paused) {
            return new Membership() {
                @Override
                public List<PeriodicJob> firing(Instant at) {
                    return jobs;
                }

                @Override
                public List<String> paused(Instant at) {
                    return paused;
                }
            };
        }
    }

    private final NavigableMap<Instant, List<PeriodicJob>> fires = new TreeMap<>();
    private final Map<SkipReason, NavigableMap<Instant, List<String>>> skips = new EnumMap<>(SkipReason.class);

    private CatchUpPlan() {
    }

    /**
     * Plans with the same members at every instant.
     *
     * @param jobs the registered, unpaused members of the schedule
     * @param paused the paused members
     * @param instant the fire's own instant
     * @param missed what it settles besides
     * @param now the time of the decision, against which catch-up windows are measured
     */
    static CatchUpPlan of(List<PeriodicJob> jobs, List<String> paused, Instant instant, Missed missed, Instant now) {
        return of(Membership.constant(jobs, paused), instant, missed, now);
    }

    /**
     * @param members who was a member of the schedule at each instant
     * @param instant the fire's own instant
     * @param missed what it settles besides
     * @param now the time of the decision, against which catch-up windows are measured
     */
    static CatchUpPlan of(Membership members, Instant instant, Missed missed, Instant now) {
        CatchUpPlan plan = new CatchUpPlan();
        Map<String, PeriodicJob> jobs = new LinkedHashMap<>();
        Map<String, List<Instant>> missedFiring = new HashMap<>();
        for (ScheduledInstant passed : missed.passedOver()) {
            List<PeriodicJob> firing = members.firing(passed.at());
            if (passed.fires()) {
                plan.skip(members.paused(passed.at()), passed.at(), SkipReason.PAUSED);
                if (missed.afterMisfire()) {
                    plan.skip(members.unregistered(passed.at()), passed.at(), SkipReason.NOT_REGISTERED);
                }
                for (PeriodicJob job : firing) {
                    jobs.putIfAbsent(job.name(), job);
                    missedFiring.computeIfAbsent(job.name(), key -> new ArrayList<>()).add(passed.at());
                }
            } else {
                plan.skip(firing.stream().map(PeriodicJob::name).toList(), passed.at(), SkipReason.DST_GAP);
                plan.skip(members.paused(passed.at()), passed.at(), SkipReason.DST_GAP);
                plan.skip(members.unregistered(passed.at()), passed.at(), SkipReason.DST_GAP);
            }
        }
        Set<String> ownInstant = new HashSet<>();
        for (PeriodicJob job : members.firing(instant)) {
            jobs.putIfAbsent(job.name(), job);
            ownInstant.add(job.name());
        }
        for (PeriodicJob job : jobs.values()) {
            List<Instant> its = missedFiring.getOrDefault(job.name(), List.of());
            boolean own = ownInstant.contains(job.name());
            if (!missed.afterMisfire()) {
                if (own) {
                    plan.fire(job, instant);
                }
                continue;
            }
            switch (job.misfirePolicy()) {
                case FIRE_ONCE_NOW -> {
                    // a job that left the schedule meanwhile has its latest instant on it stand for the fire's own
                    Instant latest = own ? instant : its.isEmpty() ? null : its.get(its.size() - 1);
                    its.stream().filter(at -> !at.equals(latest))
                            .forEach(at -> plan.skip(job.name(), at, SkipReason.SUPERSEDED));
                    if (latest != null) {
                        plan.fire(job, latest);
                    }
                }
                case SKIP_MISSED -> {
                    its.forEach(at -> plan.skip(job.name(), at, SkipReason.MISSED));
                    if (own && missed.latestMissed()) {
                        plan.skip(job.name(), instant, SkipReason.MISSED);
                    } else if (own) {
                        plan.fire(job, instant);
                    }
                }
                case FIRE_ALL_MISSED -> plan.catchUp(job, its, own ? instant : null, now);
            }
        }
        return plan;
    }

    /** @param instant the fire's own instant, or null if the job was no member of it */
    private void catchUp(PeriodicJob job, List<Instant> missedFiring, Instant instant, Instant now) {
        List<Instant> all = new ArrayList<>(missedFiring);
        if (instant != null) {
            all.add(instant);
        }
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
