package dev.onebeat.scheduler.engine.quartz;

import dev.onebeat.job.MisfirePolicy;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.boot.database.StatementChunks;
import dev.onebeat.scheduler.boot.database.StoppableTransactions;
import dev.onebeat.scheduler.engine.cluster.DatabaseServerChanged;
import dev.onebeat.scheduler.engine.cluster.FailoverProperties;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.registry.ScheduleKeys;
import dev.onebeat.scheduler.engine.schedule.ScheduledInstant;
import dev.onebeat.scheduler.engine.schedule.Timetable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.quartz.JobDataMap;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * After a change of the database server ({@link DatabaseServerChanged}), fires again the instants whose fire
 * committed on the old server and was lost with it (asynchronous replication): the replicated trigger had already
 * passed them, so nothing would fire them again, and the tasks of those not yet published would be lost. An instant
 * is lost when the job's schedule trigger has passed it and there is neither a ledger row nor any attempt record
 * (a skip, a failure) of it, and no fire of it holds the job's lock now. The lost fires of one instant are handed to
 * the cluster together, as a one-shot trigger of up to {@value #JOBS_PER_HAND_BACK} jobs ({@link HandBack#recover}),
 * fired as {@code recovery} fires by the batch path of a replica, calendars and catch-up windows included, with the
 * keys of their first fires: tasks published before the failover are published again under the same keys, which
 * consumers dedupe by; the ledger lets one fire of each commit. Jobs that replica does not register are handed back
 * one by one to a replica that does.
 *
 * <p>Instants are looked for back to {@link FailoverProperties#lookBack()} (Quartz's misfire threshold by default:
 * an instant that late is still fired as the schedule's own), narrowed by each job's catch-up window; past the
 * misfire threshold only a {@code FIRE_ALL_MISSED} job has its lost instants fired, its most recent
 * {@code maxCatchUp}. One replica looks at a time (a ShedLock lease, {@value #TURN}, held through its hand-backs);
 * another finding it busy leaves the turn: a second look would find the same instants, armed already or fired.
 */
@Component
class LostFires implements ApplicationContextAware, DisposableBean {

    /** The counter of lost fires handed back to be fired again, {@code onebeat_failover_refired_total}. */
    static final String METRIC = "onebeat.failover.refired";

    private static final Logger log = LoggerFactory.getLogger(LostFires.class);
    private static final int MAX_PER_JOB = 10_000;
    /** How long a shutdown waits for a look it ended to roll back. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    /** Jobs looked at per step: their triggers are read in one statement, their ledger rows in two more. */
    private static final int STEP = 10_000;
    /**
     * The lease a look holds, on one replica at a time ({@code shedlock}), and how long it lasts unless renewed: the
     * later rounds of other replicas come {@code stranded-after + sweep-interval + 1 s} apart (16 s by default).
     */
    static final String TURN = "onebeat-lost-fires";
    private static final Duration TURN_AT_MOST = Duration.ofSeconds(30);
    /** Hand-backs (triggers) per transaction, under Quartz's trigger lock, which no replica can take meanwhile. */
    private static final int HAND_BACKS_PER_TRANSACTION = 200;
    /**
     * The most jobs of one instant handed back as one trigger, fired by the batch path in a few transactions; and the
     * most characters of their names, which the trigger's row holds and Quartz reads whenever it fires or recovers it.
     */
    static final int JOBS_PER_HAND_BACK = 1_000;
    static final int NAMES_PER_HAND_BACK = 32_768;

    private final Scheduler scheduler;
    private final JobRegistry registry;
    private final JobCatalog catalog;
    private final InstantRecords records;
    private final StrandedTriggers stranded;
    private final ScheduleTriggers triggers;
    /** A look's transaction, which a shutdown ends: at a million jobs a look reads each job's trigger and ledger. */
    private final StoppableTransactions transactions;
    private final Clock clock;
    private final FailoverProperties properties;
    private final Duration misfireThreshold;
    private final Counter refired;
    /** The looks of this replica, one after the other: a later round waits for one still handing back. */
    private final ReentrantLock looking = new ReentrantLock();
    private final LockProvider locks;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "onebeat-lost-fires");
        daemon.setDaemon(true);
        return daemon;
    });
    private ApplicationContext context;

    LostFires(Scheduler scheduler, JobRegistry registry, JobCatalog catalog, InstantRecords records,
              StrandedTriggers stranded, ScheduleTriggers triggers, TransactionTemplate transactions,
              DataSource dataSource, LockProvider locks, Clock clock, FailoverProperties properties, MeterRegistry meters,
              @Value("${spring.quartz.properties.org.quartz.jobStore.misfireThreshold:60000}") long misfireMillis) {
        this.scheduler = scheduler;
        this.registry = registry;
        this.catalog = catalog;
        this.records = records;
        this.stranded = stranded;
        this.triggers = triggers;
        this.transactions = new StoppableTransactions(transactions, dataSource, "lost-fire look");
        this.locks = locks;
        this.clock = clock;
        this.properties = properties;
        this.misfireThreshold = Duration.ofMillis(misfireMillis);
        this.refired = Counter.builder(METRIC)
                .description("fires lost with a failed-over database server, handed back to the cluster to be fired again")
                .register(meters);
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /**
     * Recovers the stranded triggers, then looks for lost instants now and twice more, once the triggers the sweep
     * gives back (old enough only {@link FailoverProperties#strandedAfter()} after their fire) have fired: a late
     * trigger's fire stands for its latest instant and passes over the ones before it, which only a later look sees.
     */
    @EventListener
    void on(DatabaseServerChanged change) {
        try {
            stranded.sweep();
        } catch (RuntimeException e) {
            log.warn("stranded fire records not recovered after the database server change, the sweep tries again "
                    + "error={}", e.toString());
        }
        look(change, 1);
        long later = properties.strandedAfter().plus(properties.sweepInterval()).plusSeconds(1).toMillis();
        thread.schedule(() -> look(change, 2), later, TimeUnit.MILLISECONDS);
        thread.schedule(() -> look(change, 3), 2 * later, TimeUnit.MILLISECONDS);
    }

    private void look(DatabaseServerChanged change, int round) {
        try {
            int count = refire();
            if (count != 0 || round == 1) {
                log.warn("lost fires after the database server change handed back to fire again as recoveries "
                        + "refired={} round={} lookBack={} new={}", count, round, properties.lookBack(),
                        change.after());
            }
        } catch (StoppableTransactions.Stopped e) {
            log.info("lost fires not looked for, the replica stops round={} reason={}", round, e.getMessage());
        } catch (RuntimeException e) {
            log.warn("lost fires not looked for after the database server change round={} error={}", round,
                    e.toString(), e);
        }
    }

    /**
     * Hands back every lost instant of the jobs this replica registers, if no other replica is at it.
     *
     * @return how many instants were handed back; -1 if another replica holds the turn
     */
    int refire() {
        return refire(STEP);
    }

    /** {@link #refire()}, {@code step} jobs a step. */
    int refire(int step) {
        return refire(step, HAND_BACKS_PER_TRANSACTION);
    }

    /**
     * {@link #refire()}, {@code step} jobs a step, the instants found handed back {@code perTransaction} a transaction.
     * The look reads in one transaction, under its lease; each batch of hand-backs commits on its own, so that
     * Quartz's trigger lock, which a hand-back takes and no replica can then take to acquire a trigger, is held for one
     * batch only: 81,925 hand-backs in the look's own transaction held it 52 s (bench/jobs.sh --lost-jobs,
     * BENCHMARKS.md).
     * A batch that fails rolls back alone: those before it stand, the look fails, and the next round looks again.
     */
    int refire(int step, int perTransaction) {
        looking.lock();
        try {
            // a round that waited for one the shutdown ended takes no turn
            transactions.checkpoint();
            // one replica at a time, for the whole look, hand-backs included: another would find the instants not
            // handed back yet, and hand back again those whose hand-back had fired meanwhile. A lease in the database
            // (ShedLock, database time), not a session's advisory lock, which a transaction pooler would not keep;
            // short and renewed as the look goes on, so that a replica that dies looking holds up the others' later
            // rounds for TURN_AT_MOST at most
            Optional<SimpleLock> lease = locks.lock(new LockConfiguration(clock.instant(), TURN, TURN_AT_MOST,
                    Duration.ZERO));
            if (lease.isEmpty()) {
                return -1;
            }
            try (Turn turn = new Turn(lease.get())) {
                // read before the look's ledger reads: a hand-back that completes in between has committed its fires
                Set<String> pending = pending();
                return handBack(look(step, turn), pending, perTransaction, turn);
            }
        } finally {
            looking.unlock();
        }
    }

    /**
     * This replica's turn to look: a lease renewed at each step and batch, let go at the end.
     *
     * <p>Renewed by hand, not by ShedLock's {@code KeepAliveLockProvider}: that one extends a lease from a timer
     * thread for as long as the process lives, so a look stuck on a lock or a dead connection would keep the turn,
     * and every other replica's rounds would pass without a look. Renewed only when a step or a batch of hand-backs
     * begins, the lease runs out {@code TURN_AT_MOST} after the look stopped making progress.
     */
    private static final class Turn implements AutoCloseable {

        private SimpleLock lease;

        Turn(SimpleLock lease) {
            this.lease = lease;
        }

        /**
         * Renews the lease for another {@code TURN_AT_MOST}. One that could not be renewed (it ran out, another
         * replica took it) is left to end: that replica may look too, and its hand-backs of the instants this one
         * handed back are refused as existing.
         */
        void renew() {
            if (lease == null) {
                return;
            }
            Optional<SimpleLock> renewed = lease.extend(TURN_AT_MOST, Duration.ZERO);
            lease = renewed.orElse(null);
            if (renewed.isEmpty()) {
                log.warn("lost-fire look's turn could not be renewed, another replica may look too lease={}", TURN);
            }
        }

        /** Lets the lease go; a failure to is logged, not thrown over what ended the look. */
        @Override
        public void close() {
            if (lease == null) {
                return;
            }
            try {
                lease.unlock();
            } catch (RuntimeException e) {
                log.warn("lost-fire look's turn not let go, it ends by itself within {} lease={} error={}",
                        TURN_AT_MOST, TURN, e.toString());
            }
        }
    }

    /** @return the lost instants of the jobs this replica registers, read in one transaction */
    private List<Lost> look(int step, Turn turn) {
        return QuartzWork.inTransaction(transactions, () -> {
            Instant now = records.databaseNow();
            // read once for every job: a scan of 10,000 jobs must not read the whole lock table 10,000 times
            Map<String, JobCatalog.Standing> standings = catalog.standings();
            Map<String, Set<Instant>> running = records.runningAll();
            List<Looked> looked = new ArrayList<>();
            for (RegisteredJob registered : registry.all()) {
                JobCatalog.Standing standing = standings.get(registered.name());
                if (standing != null && !standing.paused() && !standing.orphaned()) {
                    looked.add(new Looked(registered.job(), ScheduleKeys.key(registered.job()),
                            standing.memberSince()));
                }
            }
            // a step of jobs at a time, their triggers and ledger rows read in a statement each: a trigger and a ledger
            // read per job took 46-49 s at 100,000 jobs (bench/jobs.sh, BENCHMARKS.md)
            List<Lost> found = new ArrayList<>();
            Timetables timetables = new Timetables();
            for (List<Looked> jobs : StatementChunks.of(looked, step)) {
                transactions.checkpoint();
                turn.renew();
                Set<String> together = jobs.stream().filter(look -> together(look.job()))
                        .map(look -> look.job().name()).collect(Collectors.toSet());
                lost(jobs, now, running, timetables).forEach((job, instants) ->
                        instants.forEach(at -> found.add(new Lost(job, at, together.contains(job)))));
                timetables.stepEnded();
            }
            return found;
        });
    }

    /**
     * Hands back those of {@code lost} not handed back already ({@code pending}): the jobs of one instant that the batch path fires together ({@link #together}) as one trigger each
     * {@value #JOBS_PER_HAND_BACK} jobs or {@value #NAMES_PER_HAND_BACK} characters of names ({@link HandBack#recover}),
     * the others alone; {@code perTransaction} triggers a transaction.
     *
     * @return how many of {@code lost} were handed back now
     */
    private int handBack(List<Lost> lost, Set<String> pending, int perTransaction, Turn turn) {
        List<HandBackTrigger> handBacks = handBacks(lost, pending);
        int total = 0;
        try {
            for (List<HandBackTrigger> batch : StatementChunks.of(handBacks, perTransaction)) {
                turn.renew();
                int created = QuartzWork.inTransaction(transactions, () -> {
                    int now = 0;
                    for (HandBackTrigger handBack : batch) {
                        transactions.checkpoint();
                        boolean made = handBack.together()
                                ? HandBack.recover(scheduler, handBack.jobs(), handBack.at(), clock)
                                : HandBack.recoverAlone(scheduler, handBack.jobs().get(0), handBack.at(), clock);
                        if (made) {
                            now += handBack.jobs().size();
                        }
                    }
                    return now;
                });
                total += created;
                refired.increment(created);
            }
            return total;
        } catch (RuntimeException e) {
            if (total > 0) {
                log.warn("lost fires handed back before the look ended handedBack={} of={}", total, lost.size());
            }
            throw e;
        }
    }

    /**
     * @return the fires handed back already, {@code job@epochMillis}: those of the hand-back triggers that have not
     *     fired yet or are firing now (a one-shot trigger is deleted once its fire completes). A later look that found
     *     the same instants lost, some of them committed meanwhile, would otherwise hand the rest back again, under a
     *     trigger of another name
     */
    private Set<String> pending() {
        Set<String> pending = new HashSet<>();
        try {
            for (TriggerKey key : scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(HandBack.GROUP))) {
                String name = key.getName();
                if (name.startsWith(HandBack.GROUP_PREFIX)) {
                    // a group: its jobs are in its data, read for these triggers only (some tens after 10,000 jobs);
                    // or a single fire of a job named "lost", whose data says which
                    Trigger trigger = scheduler.getTrigger(key);
                    JobDataMap data = trigger == null ? null : trigger.getJobDataMap();
                    if (data != null && HandBack.isHandedBack(data) && !data.containsKey(QuartzTriggers.MANUAL_TIME)
                            && !Retries.isRetry(data)) {
                        long at = HandBack.instant(data).toEpochMilli();
                        HandBack.jobs(data).forEach(job -> pending.add(job + "@" + at));
                    }
                } else if (name.lastIndexOf('#') > name.lastIndexOf('@')
                        && name.lastIndexOf('~') < name.lastIndexOf('#')) {
                    // a single fire handed back, named job@millis#attempt; a manual run's or a retry's name goes on
                    // with ~ and 20 hex digits, and stands for another fire than the schedule's own
                    pending.add(name.substring(0, name.lastIndexOf('#')));
                }
            }
        } catch (SchedulerException e) {
            throw new IllegalStateException("could not read the fires handed back already: " + e.getMessage(), e);
        }
        return pending;
    }

    /**
     * @return whether the batch path fires the job ({@code ScheduleFire}): a job defined by data that does not allow
     *     overlapping fires; the others fire alone, so that a slow one holds up no other
     */
    private static boolean together(PeriodicJob job) {
        return RegisteredJob.isDeclarative(job) && job.overlapPolicy() != OverlapPolicy.ALLOW;
    }

    /**
     * @return the triggers that hand {@code lost} back, less the {@code pending} ones: by instant, oldest first, the
     *     jobs of one instant fired together sorted and cut into groups, each other job a trigger of its own
     */
    static List<HandBackTrigger> handBacks(List<Lost> lost, Set<String> pending) {
        Map<Instant, List<Lost>> byInstant = new TreeMap<>();
        for (Lost instant : lost) {
            if (!pending.contains(instant.job() + "@" + instant.at().toEpochMilli())) {
                byInstant.computeIfAbsent(instant.at(), at -> new ArrayList<>()).add(instant);
            }
        }
        List<HandBackTrigger> triggers = new ArrayList<>();
        byInstant.forEach((at, jobs) -> {
            List<String> together = jobs.stream().filter(Lost::together).map(Lost::job).distinct().sorted().toList();
            List<String> group = new ArrayList<>();
            int characters = 0;
            for (String job : together) {
                if (group.size() == JOBS_PER_HAND_BACK || characters + job.length() > NAMES_PER_HAND_BACK) {
                    triggers.add(new HandBackTrigger(at, List.copyOf(group), true));
                    group.clear();
                    characters = 0;
                }
                group.add(job);
                characters += job.length() + 1;
            }
            if (!group.isEmpty()) {
                triggers.add(new HandBackTrigger(at, List.copyOf(group), true));
            }
            jobs.stream().filter(job -> !job.together()).map(Lost::job).distinct()
                    .forEach(job -> triggers.add(new HandBackTrigger(at, List.of(job), false)));
        });
        return triggers;
    }

    /** A trigger that hands back the lost fires of one instant: of several jobs fired together, or of one alone. */
    record HandBackTrigger(Instant at, List<String> jobs, boolean together) {
    }

    /** An instant found lost, of a job, and whether the batch path fires that job ({@link #together}). */
    record Lost(String job, Instant at, boolean together) {
    }

    /** A job looked at, its schedule's key, and since when it has been a member of that schedule. */
    private record Looked(PeriodicJob job, String scheduleKey, Instant memberSince) {
    }

    /** A job's instants that its trigger has passed: from where the look begins, until the one it fires next. */
    private record Passed(PeriodicJob job, Instant from, Instant until) {
    }

    /**
     * The timetables of a look, and the instants a step reads from them, shared by the jobs of one schedule: many
     * jobs share one (at 100,000 jobs the benchmark's have 5,763 schedules), and a cron's timetable is parsed once a
     * look and walked once a step. The instants, which differ with each job's window, are kept for a step only.
     */
    private static final class Timetables {

        private final Map<Schedule, Timetable> bySchedule = new HashMap<>();
        private final Map<List<Object>, List<ScheduledInstant>> instants = new HashMap<>();

        Timetable of(Schedule schedule) {
            return bySchedule.computeIfAbsent(schedule, Timetable::of);
        }

        void stepEnded() {
            instants.clear();
        }

        List<ScheduledInstant> between(Schedule schedule, Instant from, Instant to) {
            return instants.computeIfAbsent(List.of(schedule, from, to),
                    key -> of(schedule).between(from, to, MAX_PER_JOB));
        }
    }

    /** @return the lost instants of the jobs of one step, by job, in order */
    private Map<String, List<Instant>> lost(List<Looked> step, Instant now, Map<String, Set<Instant>> running,
                                            Timetables timetables) throws SchedulerException {
        Map<String, ScheduleTriggers.Times> times = triggers.times(step.stream().map(Looked::scheduleKey).distinct()
                .toList());
        List<Passed> passed = new ArrayList<>();
        for (Looked look : step) {
            PeriodicJob job = look.job();
            ScheduleTriggers.Times trigger = times.get(look.scheduleKey());
            if (trigger == null || trigger.nextFire() == null) {
                continue;
            }
            Timetable timetable = timetables.of(job.schedule());
            // the trigger has passed every instant before the one it fires next
            Instant until = LogicalInstants.ofFireTime(timetable, trigger.nextFire());
            Duration lookBack = job.catchUpWindow().compareTo(properties.lookBack()) < 0 ? job.catchUpWindow()
                    : properties.lookBack();
            Instant from = now.minus(lookBack);
            // nothing was due before the job joined its schedule and the trigger began (what the instants API expects)
            for (Instant since : new Instant[] {look.memberSince(), trigger.start()}) {
                if (since != null && since.isAfter(from)) {
                    from = since;
                }
            }
            if (from.isBefore(until)) {
                passed.add(new Passed(job, from, until));
            }
        }
        Map<String, Map<Instant, InstantRecords.Slot>> recorded = records.slots(passed.stream()
                .map(look -> new InstantRecords.Range(look.job().name(), look.from(), look.until())).toList());
        Map<String, List<Instant>> lost = new LinkedHashMap<>();
        for (Passed look : passed) {
            List<Instant> instants = lost(look, recorded.getOrDefault(look.job().name(), Map.of()), now,
                    running.getOrDefault(look.job().name(), Set.of()), timetables);
            if (!instants.isEmpty()) {
                lost.put(look.job().name(), instants);
            }
        }
        return lost;
    }

    private List<Instant> lost(Passed look, Map<Instant, InstantRecords.Slot> recorded, Instant now,
                               Set<Instant> running, Timetables timetables) {
        PeriodicJob job = look.job();
        List<Instant> late = new ArrayList<>();
        List<Instant> lost = new ArrayList<>();
        for (ScheduledInstant instant : timetables.between(job.schedule(), look.from(), look.until())) {
            Instant at = instant.at();
            if (!instant.fires() || recorded.containsKey(at) || running.contains(at) || !at.isBefore(look.until())) {
                continue;
            }
            (at.plus(misfireThreshold).isBefore(now) ? late : lost).add(at);
        }
        if (job.misfirePolicy() == MisfirePolicy.FIRE_ALL_MISSED) {
            lost.addAll(0, late.subList(Math.max(0, late.size() - job.maxCatchUp()), late.size()));
        }
        return lost;
    }

    /**
     * Ends a look under way as the shutdown begins, rolled back (its reads, or the batch it was handing back), while
     * the replica's fires and relay finish; {@link #destroy} waits for it.
     */
    @EventListener
    void shutdownBegins(ContextClosedEvent closed) {
        if (closed.getApplicationContext() == context) {
            transactions.beginStop();
        }
    }

    /** Ends a look under way, rolled back (its reads, or the batch it was handing back), before the pool closes. */
    @Override
    public void destroy() {
        transactions.stop(STOP_WAIT);
        thread.shutdownNow();
    }
}
