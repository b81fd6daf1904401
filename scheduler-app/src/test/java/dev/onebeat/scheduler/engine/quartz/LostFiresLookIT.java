package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import dev.onebeat.scheduler.boot.database.StoppableTransactions;
import dev.onebeat.scheduler.engine.cluster.FailoverProperties;
import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.fire.ScheduleFire;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.JobsProperties;
import dev.onebeat.scheduler.operate.admin.RuntimeJobs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.quartz.simpl.CascadingClassLoadHelper;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.SchedulerSignaler;
import org.quartz.spi.TriggerFiredBundle;
import org.quartz.spi.TriggerFiredResult;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;
import org.quartz.impl.matchers.GroupMatcher;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The look for lost fires after a database server change: it reads its jobs' triggers and ledger rows a step of jobs
 * at a time, and finds the same instants whatever the step; a shutdown ends it, rolled back, before the pool closes.
 */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class LostFiresLookIT {

    @Autowired
    Scheduler scheduler;
    @Autowired
    JobRegistry registry;
    @Autowired
    JobCatalog catalog;
    @Autowired
    InstantRecords records;
    @Autowired
    StrandedTriggers stranded;
    @Autowired
    ScheduleTriggers scheduleTriggers;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    ApplicationContext context;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    DataSource dataSource;
    @Autowired
    FailoverProperties failover;

    @Autowired
    RuntimeJobs admin;
    @Autowired
    LockProvider locks;
    @Autowired
    ScheduleFire scheduleFire;
    @Autowired
    FirePath firePath;

    @Test
    void theLostFiresOfOneInstantAreHandedBackAsOneTriggerAndFiredTogetherAsRecoveries() throws Exception {
        // three jobs on one schedule of 7 s and two on one of 11 s: each instant's lost fires go back as one trigger,
        // which fires them in one transaction; 78,240 triggers of one fire each took 52 s to write after 10,000 lost
        // jobs
        List<String> names = List.of("lost-group-a", "lost-group-b", "lost-group-c", "lost-group-d", "lost-group-e");
        try {
            lostHalfAMinute(names);
            LostFires lostFires = lostFires();
            int handedBack = lostFires.refire();

            Set<String> instants = handedBack();
            assertThat(instants).hasSize(handedBack);
            Map<Long, Long> jobsByInstant = instants.stream().collect(Collectors.groupingBy(
                    instant -> Long.parseLong(instant.substring(instant.indexOf('@') + 1)), Collectors.counting()));
            assertThat(handBacks()).as("one trigger an instant").isEqualTo(jobsByInstant.size());
            assertThat(jobsByInstant.values()).as("the 7 s schedule's three jobs share its instants").contains(3L);

            // one of them commits meanwhile (its schedule, late): a later look hands back nothing again, though the
            // rest of that instant's jobs is another set, and would be another trigger
            String committed = instants.stream().filter(instant -> instant.startsWith("lost-group-a@")).findFirst()
                    .orElseThrow();
            Instant committedAt = Instant.ofEpochMilli(Long.parseLong(committed.substring(committed.indexOf('@') + 1)));
            jdbc.sql("""
                            INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                            VALUES ('lost-group-a', ?, ?, 'n1', 'scheduled', 'committed')""")
                    .params(Timestamp.from(committedAt), Timestamp.from(committedAt)).update();
            assertThat(lostFires.refire()).as("all handed back already, waiting to fire").isZero();
            assertThat(handBacks()).isEqualTo(jobsByInstant.size());

            // an older replica that acquired one could not load its Quartz job: Quartz left it in ERROR
            jdbc.sql("UPDATE qrtz_triggers SET trigger_state = 'ERROR' WHERE trigger_group = ? AND trigger_name = "
                    + "(SELECT min(trigger_name) FROM qrtz_triggers WHERE trigger_group = ?)")
                    .params(HandBack.GROUP, HandBack.GROUP).update();
            // (the context's own sweep may be first to it: it runs the same every 5 s)
            stranded.resetHandBacksInError();
            assertThat(jdbc.sql("SELECT count(*) FROM qrtz_triggers WHERE trigger_group = ? AND trigger_state = "
                    + "'WAITING'").param(HandBack.GROUP).query(Integer.class).single()).as("put back")
                    .isEqualTo(handBacks());
            assertThat(handedBack()).as("each with its jobs and instant").isEqualTo(instants);

            // each fired by the Quartz job of its trigger, as a replica acquiring it runs it
            LostFiresJob job = new LostFiresJob(scheduleFire, transactions, Clock.systemUTC());
            for (TriggerKey key : scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(HandBack.GROUP))) {
                assertThat(scheduler.getTrigger(key).getJobKey()).isEqualTo(QuartzTriggers.LOST_JOB);
                job.execute(firing(scheduler.getTrigger(key).getJobDataMap()));
                scheduler.unscheduleJob(key);
            }

            List<Map<String, Object>> fires = jdbc.sql("""
                            SELECT job_name || '@' || (extract(epoch FROM scheduled_at) * 1000)::bigint AS instant,
                                   trigger_kind, outcome, xmin::text AS transaction
                            FROM onebeat_fire WHERE job_name = ANY(?::varchar[]) AND trigger_kind = 'recovery'""")
                    .param(names.toArray(String[]::new)).query().listOfRows();
            Set<String> recovered = new HashSet<>(instants);
            recovered.remove(committed);
            assertThat(fires).extracting(fire -> fire.get("instant")).as("every lost instant fired once, the one "
                    + "committed meanwhile not again").containsExactlyInAnyOrderElementsOf(recovered);
            assertThat(fires).allSatisfy(fire -> assertThat(fire).containsEntry("outcome", "committed"));
            Map<Object, Set<Object>> transactionsByInstant = fires.stream().collect(Collectors.groupingBy(
                    fire -> ((String) fire.get("instant")).substring(((String) fire.get("instant")).indexOf('@')),
                    Collectors.mapping(fire -> fire.get("transaction"), Collectors.toSet())));
            assertThat(transactionsByInstant.values()).as("each instant's fires committed together, by the batch path")
                    .allSatisfy(transactions -> assertThat(transactions).hasSize(1));

            // a job of a group that the replica firing it does not register is handed back alone, to one that does
            JobDataMap unknown = new JobDataMap();
            unknown.put(HandBack.JOB_NAMES, "lost-group-a\nlost-group-unknown");
            unknown.put(HandBack.INSTANT, committedAt.toEpochMilli());
            job.execute(firing(unknown));
            assertThat(scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(HandBack.GROUP)))
                    .extracting(TriggerKey::getName)
                    .containsExactly("lost-group-unknown@" + committedAt.toEpochMilli() + "#1");
        } finally {
            removeJobs(names);
        }
    }

    @Test
    @Timeout(120)
    void aGroupHandBackAnOlderReplicaCannotLoadIsLeftInErrorThenPutBackAndFiredByANewerOneWhileSinglesFireAnywhere()
            throws Exception {
        // a rolling deploy: the hand-backs are acquired first by a replica of a version before LostFiresJob, by
        // Quartz's own job store code, then by a replica of this version
        List<String> names = List.of("lost-old-a", "lost-old-b", "lost-old-c", "lost-old-overlapping");
        JobStoreTX older = store("older", className -> {
            if (className.equals(LostFiresJob.class.getName())) {
                throw new ClassNotFoundException(className + " (a version before it)");
            }
        });
        JobStoreTX newer = store("newer", className -> {
        });
        try {
            lostHalfAMinute(names.subList(0, 3));
            // a job that allows overlapping fires is fired alone, even in a schedule's instant: so is its lost fire
            admin.create(JobsProperties.Definition.builder(names.get(3)).every("7s").overlapPolicy("allow")
                    .task("lost.look").build());
            jdbc.sql("UPDATE onebeat_job SET member_since = member_since - interval '30 seconds' WHERE name = ?")
                    .param(names.get(3)).update();
            int handedBack = lostFires().refire();
            Set<String> instants = handedBack();
            assertThat(instants).hasSize(handedBack);
            Set<String> groups = handBackNames(true);
            Set<String> singles = handBackNames(false);
            assertThat(groups).as("the three jobs that do not overlap, by instant").isNotEmpty()
                    .allSatisfy(name -> assertThat(name).startsWith(HandBack.GROUP_PREFIX));
            assertThat(singles).as("the overlapping job's, one each").isNotEmpty()
                    .allSatisfy(name -> assertThat(name).startsWith(names.get(3) + "@"));
            Map<String, Long> due = jdbc.sql("SELECT trigger_name, next_fire_time FROM qrtz_triggers WHERE "
                    + "trigger_group = ?").param(HandBack.GROUP).query((row, i) -> Map.entry(row.getString(1),
                    row.getLong(2))).list().stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            long lastDue = due.values().stream().mapToLong(Long::longValue).max().orElseThrow();

            // the older replica: Quartz cannot load the group's job, leaves those triggers in ERROR and acquires the
            // rest of its batch, the single hand-backs among them, which it fires
            List<OperableTrigger> acquired = acquireHandBacks(older);
            assertThat(acquired).extracting(trigger -> trigger.getKey().getName())
                    .containsExactlyInAnyOrderElementsOf(singles);
            List<String> stateOfGroups = jdbc.sql("SELECT trigger_state || ' ' || next_fire_time FROM qrtz_triggers "
                    + "WHERE trigger_group = ? AND trigger_name LIKE ?").params(HandBack.GROUP,
                    HandBack.GROUP_PREFIX + "%").query(String.class).list();
            assertThat(stateOfGroups).as("left in ERROR (or put back by this context's own sweep meanwhile, a "
                    + "second ahead)").hasSize(groups.size()).allSatisfy(state -> assertThat(state)
                    .matches("ERROR \\d+|WAITING \\d+").satisfies(s -> {
                        if (s.startsWith("WAITING")) {
                            assertThat(Long.parseLong(s.substring(8))).isGreaterThan(lastDue);
                        }
                    }));
            SingleFireJob single = new SingleFireJob(registry, firePath, transactions, Clock.systemUTC());
            fireAll(older, acquired, bundle -> single.execute(firing(bundle.getTrigger().getJobDataMap())));

            // a newer replica's sweep puts them back, and a newer replica fires them
            stranded.resetHandBacksInError();
            assertThat(jdbc.sql("SELECT count(*) FROM qrtz_triggers WHERE trigger_group = ? AND trigger_state = "
                    + "'WAITING' AND next_fire_time > ?").params(HandBack.GROUP, lastDue).query(Integer.class)
                    .single()).as("put back, a second ahead").isEqualTo(groups.size());
            List<OperableTrigger> again = acquireHandBacks(newer);
            assertThat(again).extracting(trigger -> trigger.getKey().getName())
                    .containsExactlyInAnyOrderElementsOf(groups);
            LostFiresJob group = new LostFiresJob(scheduleFire, transactions, Clock.systemUTC());
            fireAll(newer, again, bundle -> {
                assertThat(bundle.getJobDetail().getJobClass()).isEqualTo(LostFiresJob.class);
                group.execute(firing(bundle.getTrigger().getJobDataMap()));
            });

            assertThat(handBacks()).as("each one-shot trigger done").isZero();
            List<Map<String, Object>> fires = jdbc.sql("""
                            SELECT job_name || '@' || (extract(epoch FROM scheduled_at) * 1000)::bigint AS instant,
                                   outcome, xmin::text AS transaction
                            FROM onebeat_fire WHERE job_name = ANY(?::varchar[]) AND trigger_kind = 'recovery'""")
                    .param(names.toArray(String[]::new)).query().listOfRows();
            assertThat(fires).extracting(fire -> fire.get("instant")).as("every lost instant fired once")
                    .containsExactlyInAnyOrderElementsOf(instants);
            assertThat(fires).allSatisfy(fire -> assertThat(fire).containsEntry("outcome", "committed"));
            Map<Object, Set<Object>> transactionsByGroup = fires.stream()
                    .filter(fire -> !((String) fire.get("instant")).startsWith(names.get(3) + "@"))
                    .collect(Collectors.groupingBy(fire -> ((String) fire.get("instant")).substring(
                                    ((String) fire.get("instant")).indexOf('@')),
                            Collectors.mapping(fire -> fire.get("transaction"), Collectors.toSet())));
            assertThat(transactionsByGroup).as("each group's jobs committed together, by the batch path")
                    .hasSize(groups.size()).allSatisfy((instant, transactions) -> assertThat(transactions).hasSize(1));
            assertThat(firedRecords()).as("no fire record of either replica left").isZero();
        } finally {
            older.shutdown();
            newer.shutdown();
            // a failure half-way leaves the stores' fire records and acquired triggers: give them back
            jdbc.sql("""
                            UPDATE qrtz_triggers t SET trigger_state = 'WAITING' FROM qrtz_fired_triggers f
                            WHERE f.sched_name = t.sched_name AND f.trigger_name = t.trigger_name
                              AND f.trigger_group = t.trigger_group AND f.instance_name IN ('older', 'newer')
                              AND t.trigger_state = 'ACQUIRED'""").update();
            jdbc.sql("DELETE FROM qrtz_fired_triggers WHERE instance_name IN ('older', 'newer')").update();
            removeJobs(names);
        }
    }

    /** A class name a replica's class loader refuses, as one built before that class refuses it. */
    private interface Refusal {
        void check(String className) throws ClassNotFoundException;
    }

    /**
     * Quartz's own job store on this context's database and cluster, as another replica's scheduler thread uses it
     * (not started: no check-in, no misfire handling), loading job classes through {@code refusal}.
     */
    private JobStoreTX store(String replica, Refusal refusal) throws Exception {
        // Quartz keeps its data sources in a static map with no removal: one name per replica, replaced each time
        String source = "lost-fires-look-" + replica;
        DBConnectionManager.getInstance().addConnectionProvider(source, new Connections(dataSource));
        JobStoreTX store = new JobStoreTX();
        // a statement that fails is tried again after this, not Quartz's 15 s, so a failure ends the test soon
        store.setDbRetryInterval(100);
        store.setDataSource(source);
        store.setInstanceName(scheduler.getSchedulerName());
        store.setInstanceId(replica);
        store.setIsClustered(true);
        store.setAcquireTriggersWithinLock(true);
        store.setDriverDelegateClass(PostgreSQLDelegate.class.getName());
        store.setDriverDelegateInitString("triggerPersistenceDelegateClasses="
                + TimetableTriggerPersistence.class.getName());
        CascadingClassLoadHelper classes = new CascadingClassLoadHelper() {
            @Override
            public Class<?> loadClass(String name) throws ClassNotFoundException {
                refusal.check(name);
                return super.loadClass(name);
            }

            @Override
            public <T> Class<? extends T> loadClass(String name, Class<T> clazz) throws ClassNotFoundException {
                refusal.check(name);
                return super.loadClass(name, clazz);
            }
        };
        classes.initialize();
        // a collaborator: what is under test is what the store does with the triggers. Rows of earlier versions
        // name their classes by an old package, as a replica's store reads them
        store.initialize(new StoredJobClasses(classes), mock(SchedulerSignaler.class));
        return store;
    }

    /** The test's data source, as Quartz's own stores take one. */
    private record Connections(DataSource dataSource) implements ConnectionProvider {
        @Override
        public Connection getConnection() throws java.sql.SQLException {
            return dataSource.getConnection();
        }

        @Override
        public void shutdown() {
        }

        @Override
        public void initialize() {
        }
    }

    /** @return the fire records of the test's two stores */
    private int firedRecords() {
        return jdbc.sql("SELECT count(*) FROM qrtz_fired_triggers WHERE instance_name IN ('older', 'newer')")
                .query(Integer.class).single();
    }

    /**
     * Acquires the due triggers, as a replica's scheduler thread does, and gives back at once the acquired ones that
     * are not hand-backs (this context's schedules may be due too; Quartz is stopped here).
     *
     * @return the hand-backs acquired
     */
    private List<OperableTrigger> acquireHandBacks(JobStoreTX store) throws Exception {
        List<OperableTrigger> acquired = store.acquireNextTriggers(System.currentTimeMillis() + 5_000, 100, 5_000);
        acquired.stream().filter(trigger -> !trigger.getKey().getGroup().equals(HandBack.GROUP))
                .forEach(store::releaseAcquiredTrigger);
        return acquired.stream().filter(trigger -> trigger.getKey().getGroup().equals(HandBack.GROUP)).toList();
    }

    /** Marks the triggers fired, runs their jobs and completes them, as a replica's Quartz threads do. */
    private void fireAll(JobStoreTX store, List<OperableTrigger> triggers, Consumer<TriggerFiredBundle> run)
            throws Exception {
        for (TriggerFiredResult result : store.triggersFired(triggers)) {
            assertThat(result.getException()).as("fired").isNull();
            TriggerFiredBundle bundle = result.getTriggerFiredBundle();
            assertThat(bundle).as("still acquired when fired").isNotNull();
            run.accept(bundle);
            // a one-shot trigger asks to be deleted, as Quartz's job shell has it
            store.triggeredJobComplete(bundle.getTrigger(), bundle.getJobDetail(),
                    bundle.getTrigger().executionComplete(null, null));
        }
    }

    /** @return the names of the group hand-backs, or of the single ones */
    private Set<String> handBackNames(boolean group) throws SchedulerException {
        return scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(HandBack.GROUP)).stream()
                .map(TriggerKey::getName).filter(name -> name.startsWith(HandBack.GROUP_PREFIX) == group)
                .collect(Collectors.toSet());
    }

    /** @return the context a replica's Quartz thread gives a trigger's job: its data, and this scheduler */
    private JobExecutionContext firing(JobDataMap data) {
        // a collaborator here: what is under test is what the job does with the trigger's data
        JobExecutionContext context = mock(JobExecutionContext.class);
        when(context.getMergedJobDataMap()).thenReturn(data);
        when(context.getScheduler()).thenReturn(scheduler);
        return context;
    }

    @Test
    void aLookFindsTheSameLostInstantsWhateverItsStep() throws Exception {
        // five jobs on two schedules whose triggers have passed instants of the last half minute with no fire recorded,
        // as a failover that lost their commits leaves them
        List<String> names = List.of("lost-look-a", "lost-look-b", "lost-look-c", "lost-look-d", "lost-look-e");
        try {
            lostHalfAMinute(names);
            LostFires lostFires = lostFires();

            int whole = lostFires.refire(10_000);
            Set<String> wholeHandedBack = handedBack();
            unscheduleHandedBack();
            // then one of job a's instants is found committed, and job c paused: neither is handed back again
            String committed = wholeHandedBack.stream().filter(trigger -> trigger.startsWith("lost-look-a@"))
                    .findFirst().orElseThrow();
            Instant committedAt = Instant.ofEpochMilli(Long.parseLong(committed.substring(committed.indexOf('@') + 1)));
            jdbc.sql("""
                            INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                            VALUES ('lost-look-a', ?, ?, 'n1', 'scheduled', 'committed')""")
                    .params(Timestamp.from(committedAt), Timestamp.from(committedAt)).update();
            jdbc.sql("UPDATE onebeat_job SET paused = true WHERE name = 'lost-look-c'").update();
            int stepped = lostFires.refire(2);

            assertThat(whole).as("instants of the five jobs' last half minute").isGreaterThanOrEqualTo(10);
            assertThat(wholeHandedBack).hasSize(whole)
                    .allSatisfy(trigger -> assertThat(names).anyMatch(name -> trigger.startsWith(name + "@")))
                    .anySatisfy(trigger -> assertThat(trigger).startsWith("lost-look-c@"));
            Set<String> expected = wholeHandedBack.stream().filter(trigger -> !trigger.equals(committed)
                    && !trigger.startsWith("lost-look-c@")).collect(Collectors.toSet());
            assertThat(handedBack()).as("two jobs a step").isEqualTo(expected);
            assertThat(stepped).isEqualTo(expected.size());
        } finally {
            removeJobs(names);
        }
    }

    @Test
    void eachBatchOfHandBacksCommitsOnItsOwnAndOneThatFailsLeavesThoseBeforeIt() throws Exception {
        // a hand-back holds Quartz's trigger lock until its transaction ends, and no replica acquires a trigger
        // meanwhile: 81,925 in the look's own transaction held it 52 s. Here the fifth hand-back fails
        List<String> names = List.of("lost-batch-a", "lost-batch-b", "lost-batch-c");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        jdbc.sql("""
                CREATE FUNCTION refuse_fifth_hand_back() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF (SELECT count(*) FROM qrtz_triggers WHERE trigger_group = NEW.trigger_group) >= 4 THEN
                        RAISE EXCEPTION 'hand-back refused: %', NEW.trigger_name;
                    END IF;
                    RETURN NEW;
                END $$""").update();
        jdbc.sql("CREATE TRIGGER refuse_fifth_hand_back BEFORE INSERT ON qrtz_triggers FOR EACH ROW "
                + "WHEN (NEW.trigger_group = '" + HandBack.GROUP + "') EXECUTE FUNCTION refuse_fifth_hand_back()")
                .update();
        try {
            lostHalfAMinute(names);
            LostFires lostFires = lostFires(meters);

            assertThatThrownBy(() -> lostFires.refire(10_000, 2)).hasStackTraceContaining("hand-back refused");

            assertThat(handBacks()).as("the two batches before the one that failed").isEqualTo(4);
            Set<String> before = handedBack();
            assertThat(before).allSatisfy(instant -> assertThat(names).anyMatch(name -> instant.startsWith(name + "@")));
            assertThat(meters.counter(LostFires.METRIC).count()).as("their instants, counted as they committed")
                    .isEqualTo(before.size());

            dropRefusal();
            int rest = lostFires.refire(10_000, 2);
            assertThat(rest).as("the next round, its turn let go by the failed one: the rest only").isPositive();
            assertThat(handedBack()).hasSize(before.size() + rest);
            assertThat(meters.counter(LostFires.METRIC).count()).as("those already there not counted again")
                    .isEqualTo(before.size() + rest);
        } finally {
            dropRefusal();
            removeJobs(names);
        }
    }

    @Test
    void aReplicaLooksOnlyWhileNoOtherHoldsTheTurnWhichItHoldsThroughItsHandBacks() throws Exception {
        List<String> names = List.of("lost-turn-a", "lost-turn-b");
        // every hand-back is refused unless the look's lease is held, in database time, as ShedLock keeps it
        jdbc.sql("""
                CREATE FUNCTION require_look_turn() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NOT EXISTS (SELECT 1 FROM shedlock WHERE name = 'onebeat-lost-fires'
                                   AND lock_until > timezone('utc', clock_timestamp())) THEN
                        RAISE EXCEPTION 'hand-back without the turn: %', NEW.trigger_name;
                    END IF;
                    RETURN NEW;
                END $$""").update();
        jdbc.sql("CREATE TRIGGER require_look_turn BEFORE INSERT ON qrtz_triggers FOR EACH ROW "
                + "WHEN (NEW.trigger_group = '" + HandBack.GROUP + "') EXECUTE FUNCTION require_look_turn()").update();
        try {
            lostHalfAMinute(names);
            LostFires lostFires = lostFires();
            SimpleLock other = locks.lock(new LockConfiguration(Instant.now(), LostFires.TURN, Duration.ofMinutes(1),
                    Duration.ZERO)).orElseThrow();
            try {
                assertThat(lostFires.refire()).as("another replica is looking").isEqualTo(-1);
                assertThat(handedBack()).isEmpty();
            } finally {
                other.unlock();
            }

            assertThat(lostFires.refire(10_000, 2)).as("batches of two, each under the turn").isPositive();
            assertThat(handedBack()).isNotEmpty();
            assertThat(locks.lock(new LockConfiguration(Instant.now(), LostFires.TURN, Duration.ofMinutes(1),
                    Duration.ZERO))).as("let go once its hand-backs committed").isPresent().get()
                    .satisfies(SimpleLock::unlock);
        } finally {
            jdbc.sql("DROP TRIGGER IF EXISTS require_look_turn ON qrtz_triggers").update();
            jdbc.sql("DROP FUNCTION IF EXISTS require_look_turn()").update();
            jdbc.sql("DELETE FROM shedlock WHERE name = ?").param(LostFires.TURN).update();
            removeJobs(names);
        }
    }

    private void dropRefusal() {
        jdbc.sql("DROP TRIGGER IF EXISTS refuse_fifth_hand_back ON qrtz_triggers").update();
        jdbc.sql("DROP FUNCTION IF EXISTS refuse_fifth_hand_back()").update();
    }

    /**
     * Creates the jobs on schedules of 7 and 11 s, joined, and their triggers begun, half a minute ago, with no fire
     * recorded since: their triggers have passed instants, each next fire staying where it is, as a failover that
     * lost their commits leaves them.
     */
    private void lostHalfAMinute(List<String> names) {
        for (int i = 0; i < names.size(); i++) {
            admin.create(JobsProperties.Definition.builder(names.get(i)).every(i % 2 == 0 ? "7s" : "11s")
                    .task("lost.look").build());
        }
        String[] jobs = names.toArray(String[]::new);
        jdbc.sql("UPDATE onebeat_job SET member_since = member_since - interval '30 seconds' "
                + "WHERE name = ANY(?::varchar[])").param(jobs).update();
        jdbc.sql("""
                        UPDATE qrtz_triggers SET start_time = start_time - 30000
                        WHERE trigger_group = ? AND trigger_name IN (SELECT schedule_key FROM onebeat_job
                                                                     WHERE name = ANY(?::varchar[]))""")
                .params(QuartzTriggers.SCHEDULE_GROUP, jobs).update();
    }

    /**
     * Removes the jobs, the instants handed back, their fires and their schedules' triggers, which a job's delete
     * leaves to the next fire (Quartz is stopped here): a later class of this shared context counts the schedule
     * triggers it finds.
     */
    private void removeJobs(List<String> names) throws SchedulerException {
        unscheduleHandedBack();
        String[] jobs = names.toArray(String[]::new);
        List<String> keys = jdbc.sql("SELECT DISTINCT schedule_key FROM onebeat_job WHERE name = ANY(?::varchar[])")
                .param(jobs).query(String.class).list();
        // those created: a failed setup must not hide its failure behind the clean-up's
        jdbc.sql("SELECT name FROM onebeat_runtime_job WHERE name = ANY(?::varchar[])").param(jobs)
                .query(String.class).list().forEach(admin::delete);
        for (String key : keys) {
            if (jdbc.sql("SELECT count(*) FROM onebeat_job WHERE schedule_key = ?").param(key).query(Integer.class)
                    .single() == 0) {
                scheduler.unscheduleJob(QuartzTriggers.scheduleTrigger(key));
            }
        }
        jdbc.sql("DELETE FROM onebeat_fire WHERE job_name = ANY(?::varchar[])").param(jobs).update();
        jdbc.sql("DELETE FROM onebeat_fire_attempt WHERE job_name = ANY(?::varchar[])").param(jobs).update();
        jdbc.sql("DELETE FROM onebeat_task WHERE job_name = ANY(?::varchar[])").param(jobs).update();
    }

    /** @return the instants handed back, {@code job@epochMillis} */
    private Set<String> handedBack() throws SchedulerException {
        Set<String> instants = new HashSet<>();
        for (TriggerKey key : scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(HandBack.GROUP))) {
            JobDataMap data = scheduler.getTrigger(key).getJobDataMap();
            HandBack.jobs(data).forEach(job -> instants.add(job + "@" + HandBack.instant(data).toEpochMilli()));
        }
        return instants;
    }

    /** @return the hand-backs' triggers */
    private int handBacks() throws SchedulerException {
        return scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(HandBack.GROUP)).size();
    }

    private void unscheduleHandedBack() throws SchedulerException {
        scheduler.unscheduleJobs(List.copyOf(scheduler.getTriggerKeys(
                GroupMatcher.triggerGroupEquals(HandBack.GROUP))));
    }

    private LostFires lostFires() {
        return lostFires(new SimpleMeterRegistry());
    }

    private LostFires lostFires(SimpleMeterRegistry meters) {
        LostFires lostFires = new LostFires(scheduler, registry, catalog, records, stranded, scheduleTriggers,
                transactions, dataSource, locks, Clock.systemUTC(), failover, meters, 60_000);
        lostFires.setApplicationContext(context);
        return lostFires;
    }

    @Test
    void aShutdownEndsALookUnderWayRolledBackBeforeItGoesOn() throws Exception {
        stopsALookWaitingForTheCatalog(lostFires -> {
            lostFires.destroy();

            assertThat(lookWaitingForTheCatalog()).as("the look's statement ended before the shutdown went on")
                    .isZero();
        });
    }

    @Test
    void theShutdownsBeginningEndsALookUnderWayBeforeAnythingWaitsForIt() throws Exception {
        stopsALookWaitingForTheCatalog(lostFires -> lostFires.shutdownBegins(new ContextClosedEvent(context)));
    }

    /**
     * Starts a look that waits for the catalog another session has locked, stops it by {@code stop}, and expects it
     * ended, rolled back, while the catalog is still locked and well within the server's lock_timeout (3 s).
     */
    private void stopsALookWaitingForTheCatalog(Consumer<LostFires> stop) throws Exception {
        LostFires lostFires = lostFires();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                statement.execute("LOCK TABLE onebeat_job IN ACCESS EXCLUSIVE MODE");
            }
            Future<Integer> look = thread.submit(() -> lostFires.refire());
            awaitWaitingForTheCatalog();

            stop.accept(lostFires);

            // the cancel's, not the server's lock_timeout (3 s) nor a wait for ever
            assertThatThrownBy(() -> look.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(StoppableTransactions.Stopped.class)
                    .hasRootCauseMessage("ERROR: canceling statement due to user request");
            other.rollback();
        } finally {
            lostFires.destroy();
            thread.shutdownNow();
            jdbc.sql("DELETE FROM shedlock WHERE name = ?").param(LostFires.TURN).update();
        }
    }

    /**
     * @return sessions waiting for the catalog in the look's first read of it, that of every job's standing, in a
     *     transaction begun before it (the look read the database's time first): the context's missed-fire detector,
     *     when it judges every job, reads the catalog with the same statement, on its own
     */
    private int lookWaitingForTheCatalog() {
        return jdbc.sql("""
                        SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                          AND wait_event_type = 'Lock' AND xact_start < query_start
                          AND query = 'SELECT name, member_since, paused, orphaned, schedule FROM onebeat_job'""")
                .query(Integer.class).single();
    }

    private void awaitWaitingForTheCatalog() throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            if (lookWaitingForTheCatalog() == 1) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the look never waited for the catalog");
    }
}
