package dev.onebeat.scheduler.engine.fire;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.ScheduleMembers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a schedule's fire reads of the catalog: the members of its instant, and for the instants a misfire passed over
 * who was a member of each. A fire has been taken from Quartz before it reads, so a read the database refuses is tried
 * again until the catch-up window closes.
 */
final class MemberReads {

    // under the fire's name, where an operator reading why an instant did not fire looks
    private static final Logger log = LoggerFactory.getLogger(ScheduleFire.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(200);
    private static final Duration MAX_PAUSE = Duration.ofSeconds(5);

    private final ScheduleMembers members;
    private final JobRegistry registry;
    private final FireFaults faults;
    private final Clock clock;
    private final BooleanSupplier stopping;

    /** @param stopping whether the replica stops, which ends the retries */
    MemberReads(ScheduleMembers members, JobRegistry registry, FireFaults faults, Clock clock,
                BooleanSupplier stopping) {
        this.members = members;
        this.registry = registry;
        this.faults = faults;
        this.clock = clock;
        this.stopping = stopping;
    }

    /**
     * @return who was a member of the schedule at each instant the fire settles: at its own instant those given, at
     *     a missed one those the catalog says were members then (a job that joined after it has nothing of it, one
     *     that left after it has it); the registered ones fire
     */
    CatchUpPlan.Membership membership(String scheduleKey, Instant scheduledAt, Missed missed,
                                      List<PeriodicJob> registered, List<String> unregistered,
                                      ScheduleMembers.Members due, String node) {
        List<String> paused = due.paused();
        List<ScheduleMembers.Membership> history = missed.passedOver().isEmpty() ? List.of()
                : read(scheduleKey, scheduledAt, node, () -> members.memberships(scheduleKey,
                        missed.passedOver().get(0).at(), scheduledAt));
        if (history == null) {
            // the catalog did not answer in time: the members of the fire's own instant stand for every instant,
            // each from when it joined the schedule (nothing before it for a job that joined during the outage)
            return CatchUpPlan.Membership.fromOwnInstant(registered, paused, unregistered, due.since());
        }
        Map<String, PeriodicJob> jobs = new HashMap<>();
        for (ScheduleMembers.Membership member : history) {
            registry.find(member.name()).ifPresent(job -> jobs.put(member.name(), job.job()));
        }
        return new CatchUpPlan.Membership() {
            @Override
            public List<PeriodicJob> firing(Instant at) {
                return at.equals(scheduledAt) ? registered : history.stream()
                        .filter(member -> member.memberAt(at) && !member.pausedAt(at) && jobs.containsKey(member.name()))
                        .map(member -> jobs.get(member.name())).toList();
            }

            @Override
            public List<String> unregistered(Instant at) {
                // those of the fire's own instant are handed back by the caller
                return at.equals(scheduledAt) ? List.of() : history.stream()
                        .filter(member -> member.memberAt(at) && !member.pausedAt(at) && !jobs.containsKey(member.name()))
                        .map(ScheduleMembers.Membership::name).toList();
            }

            @Override
            public List<String> paused(Instant at) {
                return at.equals(scheduledAt) ? paused : history.stream()
                        .filter(member -> member.memberAt(at) && member.pausedAt(at))
                        .map(ScheduleMembers.Membership::name).toList();
            }
        };
    }

    /**
     * Reads the schedule's members at the instant, trying again with growing pauses while the database cannot
     * answer: the fire has been taken from Quartz, so giving up here would leave its instant without a trace. A
     * replica dying meanwhile leaves the fire to Quartz's recovery.
     *
     * @param missed what the fire settles besides its own instant: when it passed over instants, the members' join
     *     times are read too ({@link #membership} plans with them if the catalog cannot say who was a member then)
     * @return the members; null once the default catch-up window has passed or the replica stops
     */
    ScheduleMembers.Members due(String scheduleKey, Instant scheduledAt, String node, Missed missed) {
        boolean withSince = !missed.passedOver().isEmpty();
        return read(scheduleKey, scheduledAt, node, () -> members.membersAt(scheduleKey, scheduledAt, withSince));
    }

    /** Reads from the catalog for a fire, trying again as {@link #due} says. @return null if it gave up */
    private <T> T read(String scheduleKey, Instant scheduledAt, String node, Supplier<T> query) {
        Duration pause = FIRST_PAUSE;
        while (true) {
            try {
                return query.get();
            } catch (RuntimeException e) {
                if (FireFaults.fromDatabase(e)) {
                    faults.failed(FireFaults.Stage.MEMBERS, node, e);
                }
                boolean tooLate = clock.instant().isAfter(scheduledAt.plus(PeriodicJob.DEFAULT_CATCH_UP_WINDOW));
                if (stopping.getAsBoolean() || tooLate) {
                    log.error("schedule's jobs could not be read, instant not fired schedule={} scheduledAt={} node={} "
                            + "error={}", scheduleKey, scheduledAt, node, e.toString(), e);
                    return null;
                }
                log.warn("could not read the schedule's jobs, trying again in {} ms schedule={} scheduledAt={} node={} "
                        + "error={}", pause.toMillis(), scheduleKey, scheduledAt, node, e.toString());
                Pauses.sleep(pause);
                pause = Pauses.doubled(pause, MAX_PAUSE);
            }
        }
    }
}
