package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import dev.onebeat.scheduler.engine.cluster.LiveNodes;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.ScheduleMembers;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.engine.registry.OrphanJudgements;
import dev.onebeat.scheduler.engine.registry.RegisteredJob;
import dev.onebeat.scheduler.engine.registry.RuntimeJobStore;
import dev.onebeat.scheduler.engine.registry.ScheduleKeys;
import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import dev.onebeat.scheduler.boot.startup.StartupProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class ScheduleSyncIT {

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);


    @Autowired
    Scheduler scheduler;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    JsonMapper json;

    @Autowired
    JobCatalog catalog;
    @Autowired
    ScheduleMembers members;
    @Autowired
    LiveNodes nodes;
    @Autowired
    OrphanJudgements judgements;
    @Autowired
    DataSource dataSource;

    @AfterEach
    void clear() throws SchedulerException {
        scheduler.clear();
        jdbc.sql("DELETE FROM onebeat_job").update();
    }

    @Test
    void unchangedScheduleKeepsItsNextFireTime() throws SchedulerException {
        sync(NOW, job("report", 3600));
        Instant first = nextFire(job("report", 3600));

        sync(NOW.plus(Duration.ofHours(5)), job("report", 3600));

        assertThat(nextFire(job("report", 3600))).isEqualTo(first);
    }

    @Test
    void restartWithNothingChangedWritesNoCatalogRow() throws SchedulerException {
        PeriodicJob[] jobs = {declared("a", 60), declared("b", 60), job("c", 3600)};
        sync(NOW, jobs);
        // xmin changes with a new row version, xmax with a row lock: the upsert of a job left as it is locked its row
        List<String> before = rowVersions();

        sync(NOW.plus(Duration.ofHours(5)), jobs);

        assertThat(rowVersions()).isEqualTo(before).hasSize(3);
        assertThat(scheduleTriggers()).containsExactlyInAnyOrder(ScheduleKeys.key(declared("a", 60)),
                ScheduleKeys.key(job("c", 3600)));
    }

    @Test
    void unchangedJobsScheduleGetsBackATriggerItLost() throws SchedulerException {
        sync(NOW, declared("a", 60), job("c", 3600));
        String key = ScheduleKeys.key(declared("a", 60));
        scheduler.unscheduleJob(QuartzTriggers.scheduleTrigger(key));
        assertThat(scheduleTriggers()).doesNotContain(key);
        List<String> before = rowVersions();

        sync(NOW, declared("a", 60), job("c", 3600));

        assertThat(scheduleTriggers()).containsExactlyInAnyOrder(key, ScheduleKeys.key(job("c", 3600)));
        assertThat(rowVersions()).isEqualTo(before);
    }

    @Test
    void replicaRecordsAsItsOwnOnlyTheJobsOfItsCodeAndConfigurationNotTheRuntimeJobs() throws SchedulerException {
        Definition runtime = Definition.builder("stored-at-run-time").every("60s").task("declared.task").build();
        jdbc.sql("INSERT INTO onebeat_runtime_job (name, kind, definition, updated_by) VALUES (?, 'job', ?::jsonb, 'test')")
                .params(runtime.name(), json.writeValueAsString(runtime)).update();
        try {
            sync(NOW, job("in-code", 60));

            assertThat(catalog.names()).containsExactly("in-code", "stored-at-run-time");
            assertThat(jdbc.sql("SELECT job_name FROM onebeat_node_job WHERE instance_id = ?").param(nodes.self())
                    .query(String.class).list()).containsExactly("in-code");
            assertThat(catalog.find("stored-at-run-time").orElseThrow().orphaned()).isFalse();
        } finally {
            jdbc.sql("DELETE FROM onebeat_runtime_job WHERE name = ?").param(runtime.name()).update();
        }
    }

    @Test
    void changedScheduleMovesTheJobToTheNewSchedulesTrigger() throws SchedulerException {
        sync(NOW, job("report", 3600));

        sync(NOW.plus(Duration.ofHours(5)), job("report", 60));

        assertThat(catalog.find("report").orElseThrow().scheduleKey()).isEqualTo(ScheduleKeys.key(job("report", 60)));
        // Quartz fires TimetableTrigger.LEAD ahead of the instant, which is at or after the sync (NOW may sit on a minute)
        assertThat(nextFire(job("report", 60)).plus(TimetableTrigger.LEAD)).isAfterOrEqualTo(NOW.plus(Duration.ofHours(5)));
        assertThat(scheduler.getTrigger(QuartzTriggers.scheduleTrigger(ScheduleKeys.key(job("report", 60))))
                .getDescription()).isEqualTo("every 60s misfire=FIRE_ONCE_NOW");
    }

    @Test
    void jobsDefinedByDataSharingAScheduleShareOneTrigger() throws SchedulerException {
        sync(NOW, declared("a", 60), declared("b", 60), declared("c", 60), declared("d", 3600));

        assertThat(scheduleTriggers()).containsExactlyInAnyOrder(ScheduleKeys.key(declared("a", 60)),
                ScheduleKeys.key(declared("d", 3600)));
        assertThat(members.members(ScheduleKeys.key(declared("a", 60)), NOW.plusSeconds(60)))
                .containsExactly("a", "b", "c");
    }

    @Test
    void jobWrittenInCodeHasATriggerOfItsOwnFiringTheSchedulesQuartzJob() throws SchedulerException {
        sync(NOW, job("own-1", 60), job("own-2", 60));

        assertThat(scheduleTriggers()).containsExactlyInAnyOrder(ScheduleKeys.key(job("own-1", 60)),
                ScheduleKeys.key(job("own-2", 60)));
        Trigger trigger = scheduler.getTrigger(QuartzTriggers.scheduleTrigger(ScheduleKeys.key(job("own-1", 60))));
        // two of its instants may meet in Quartz: the job's overlap policy decides, not Quartz
        assertThat(trigger.getJobKey()).isEqualTo(QuartzTriggers.SCHEDULE_JOB);
        assertThat(scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.SERIAL_GROUP))).isEmpty();
        assertThat(members.members(trigger.getKey().getName(), NOW.plusSeconds(60))).containsExactly("own-1");
    }

    @Test
    void pausedJobStaysPausedWhenItsScheduleChanges() throws SchedulerException {
        sync(NOW, job("report", 3600));
        transactions.execute(status -> catalog.setPaused("report", true));

        sync(NOW, job("report", 60));

        assertThat(catalog.find("report").orElseThrow().paused()).isTrue();
        assertThat(members.members(ScheduleKeys.key(job("report", 60)), NOW.plusSeconds(60))).isEmpty();
    }

    @Test
    void jobNoLongerRegisteredIsOrphanedNotDeletedAndFiresAgainWhenRegisteredAgain() throws SchedulerException {
        sync(NOW, job("kept", 60), job("retired", 60));

        sync(NOW, job("kept", 60));

        assertThat(catalog.find("retired")).hasValueSatisfying(job -> assertThat(job.orphaned()).isTrue());
        assertThat(members.members(ScheduleKeys.key(job("retired", 60)), NOW.plusSeconds(60))).isEmpty();
        assertThat(members.members(ScheduleKeys.key(job("kept", 60)), NOW.plusSeconds(60))).containsExactly("kept");

        sync(NOW, job("kept", 60), job("retired", 60));

        assertThat(catalog.find("retired").orElseThrow().orphaned()).isFalse();
        assertThat(members.members(ScheduleKeys.key(job("retired", 60)), NOW.plusSeconds(60)))
                .containsExactly("retired");
    }

    @Test
    void operatorsPauseOutlivesTheJobBeingOrphanedAndRegisteredAgain() throws SchedulerException {
        sync(NOW, job("kept", 60), job("retired", 60));
        transactions.execute(status -> catalog.setPaused("retired", true));
        sync(NOW, job("kept", 60));

        sync(NOW, job("kept", 60), job("retired", 60));

        assertThat(catalog.find("retired").orElseThrow()).satisfies(job -> {
            assertThat(job.orphaned()).isFalse();
            assertThat(job.paused()).isTrue();
        });
    }

    @Test
    void jobMovedToAnotherScheduleStillFiresTheOldSchedulesInstantsBeforeTheMove() throws SchedulerException {
        sync(NOW, job("report", 3600));
        String hourly = ScheduleKeys.key(job("report", 3600));

        sync(NOW.plusSeconds(100), job("report", 60));

        assertThat(members.members(hourly, NOW.plusSeconds(99))).as("an hourly instant due before the move")
                .containsExactly("report");
        assertThat(members.members(hourly, NOW.plusSeconds(100))).as("due at or after the move").isEmpty();
        assertThat(members.members(ScheduleKeys.key(job("report", 60)), NOW.plusSeconds(99)))
                .as("the new schedule's instants before the move").isEmpty();
        assertThat(members.members(ScheduleKeys.key(job("report", 60)), NOW.plusSeconds(120))).containsExactly("report");
    }

    @Test
    void aFireReadsWhenEachMemberJoinedItsScheduleOnlyWhenAskedTo() throws SchedulerException {
        sync(NOW, job("report", 60));
        String key = ScheduleKeys.key(job("report", 60));

        ScheduleMembers.Members with = members.membersAt(key, NOW.plusSeconds(120), true);
        ScheduleMembers.Members without = members.membersAt(key, NOW.plusSeconds(120), false);

        assertThat(with.firing()).containsExactly("report");
        assertThat(with.since()).containsOnlyKeys("report");
        assertThat(with.since().get("report")).isBeforeOrEqualTo(NOW.plusSeconds(120));
        assertThat(without.firing()).containsExactly("report");
        assertThat(without.since()).as("not read: only a fire settling missed instants plans with it").isEmpty();
    }

    @Test
    void perJobQuartzJobsOfAnEarlierVersionAreRemovedKeepingTheirPause() throws SchedulerException {
        transactions.execute(status -> {
            try {
                for (String name : List.of("legacy-paused", "legacy-running")) {
                    scheduler.scheduleJob(JobBuilder.newJob(SingleFireJob.class)
                            .withIdentity(name, QuartzTriggers.LEGACY_GROUP).storeDurably().build(),
                            TriggerBuilder.newTrigger().withIdentity(name, QuartzTriggers.LEGACY_GROUP)
                                    .withSchedule(CronScheduleBuilder.cronSchedule("0 0 * * * ?")).build());
                }
                scheduler.pauseTrigger(TriggerKey.triggerKey("legacy-paused", QuartzTriggers.LEGACY_GROUP));
                return null;
            } catch (SchedulerException e) {
                throw new IllegalStateException(e);
            }
        });

        sync(NOW, job("legacy-paused", 3600), job("legacy-running", 3600));

        assertThat(scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.LEGACY_GROUP))).isEmpty();
        assertThat(catalog.find("legacy-paused").orElseThrow().paused()).isTrue();
        assertThat(catalog.find("legacy-running").orElseThrow().paused()).isFalse();
    }

    @Test
    void engineJobsStoredByAnEarlierVersionUnderTheOldPackageStillLoadAndKeepTheirStoredNames()
            throws SchedulerException {
        sync(NOW, job("moved-package", 3600));
        // the names an earlier version wrote, before the Quartz jobs moved into the engine's package
        // (the two it had: the Quartz job of lost fires handed back together came later)
        int renamed = jdbc.sql("UPDATE qrtz_job_details SET job_class_name = replace(job_class_name,"
                + " 'dev.onebeat.scheduler.engine.quartz.', 'dev.onebeat.scheduler.quartz.')"
                + " WHERE job_class_name <> 'dev.onebeat.scheduler.engine.quartz.LostFiresJob'").update();
        assertThat(renamed).isEqualTo(2);

        sync(NOW, job("moved-package", 3600));

        assertThat(scheduler.getJobDetail(QuartzTriggers.SCHEDULE_JOB).getJobClass()).isEqualTo(ScheduleFireJob.class);
        assertThat(scheduler.getJobDetail(QuartzTriggers.SINGLE_JOB).getJobClass()).isEqualTo(SingleFireJob.class);
        assertThat(scheduler.getJobDetail(QuartzTriggers.LOST_JOB).getJobClass()).isEqualTo(LostFiresJob.class);
        // a replica of the earlier version sharing the database during a rolling deploy still finds its names
        assertThat(jdbc.sql("SELECT DISTINCT job_class_name FROM qrtz_job_details ORDER BY 1").query(String.class).list())
                .containsExactly("dev.onebeat.scheduler.engine.quartz.LostFiresJob",
                        "dev.onebeat.scheduler.quartz.ScheduleFireJob", "dev.onebeat.scheduler.quartz.SingleFireJob");
    }

    @Test
    void replicasSyncingAtOnceLeaveOneRowPerJobAndOneTriggerPerSchedule() throws Exception {
        PeriodicJob[] jobs = {job("a", 10), job("b", 20), declared("c", 30), declared("d", 30)};
        ExecutorService threads = Executors.newFixedThreadPool(6);
        CyclicBarrier start = new CyclicBarrier(6);
        List<Future<?>> syncs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            syncs.add(threads.submit(() -> {
                start.await();
                sync(NOW, jobs);
                return null;
            }));
        }
        for (Future<?> done : syncs) {
            done.get();
        }
        threads.shutdown();

        assertThat(catalog.names()).containsExactly("a", "b", "c", "d");
        assertThat(scheduleTriggers())
                .containsExactlyInAnyOrder(ScheduleKeys.key(jobs[0]), ScheduleKeys.key(jobs[1]), ScheduleKeys.key(jobs[2]));
        assertThat(scheduler.getTrigger(QuartzTriggers.scheduleTrigger(ScheduleKeys.key(jobs[0]))).getJobKey())
                .isEqualTo(QuartzTriggers.SCHEDULE_JOB);
    }

    @Test
    void jobJoiningAScheduleWhileItsTriggerIsBeingRemovedKeepsTheTrigger() throws Exception {
        sync(NOW, declared("first", 45));
        String key = ScheduleKeys.key(declared("first", 45));
        transactions.execute(status -> catalog.delete("first"));
        CountDownLatch looked = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            // the joiner stops after it has looked for the schedule's trigger, its catalog row not yet committed
            Future<?> joiner = threads.submit(() -> {
                sync(NOW, new ScheduleTriggers(scheduler, jdbc, members, transactions, Clock.fixed(NOW, ZoneOffset.UTC)) {
                    @Override
                    List<String> missing(java.util.Collection<String> scheduleKeys) throws SchedulerException {
                        List<String> missing = super.missing(scheduleKeys);
                        looked.countDown();
                        await(goOn);
                        return missing;
                    }
                }, declared("late", 45));
                return null;
            });
            assertThat(looked.await(30, TimeUnit.SECONDS)).isTrue();
            // the schedule's last fire found no member and removes the trigger meanwhile
            Future<?> remover = threads.submit(() -> new ScheduleTriggers(scheduler, jdbc, members, transactions,
                    Clock.fixed(NOW, ZoneOffset.UTC)).removeIfUnused(key, NOW));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> remover.isDone() || waitingForALock());
            goOn.countDown();
            joiner.get(30, TimeUnit.SECONDS);
            remover.get(30, TimeUnit.SECONDS);
        } finally {
            goOn.countDown();
            threads.shutdownNow();
        }

        assertThat(members.members(key, NOW.plusSeconds(45))).containsExactly("late");
        assertThat(scheduleTriggers()).as("the joiner's schedule keeps its trigger").contains(key);
    }

    private boolean waitingForALock() {
        return jdbc.sql("""
                        SELECT count(*) FROM pg_stat_activity
                        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()""")
                .query(Long.class).single() > 0;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not released in 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void sync(Instant now, PeriodicJob... jobs) {
        sync(now, new ScheduleTriggers(scheduler, jdbc, members, transactions, Clock.fixed(now, ZoneOffset.UTC)), jobs);
    }

    private void sync(Instant now, ScheduleTriggers triggers, PeriodicJob... jobs) {
        JobRegistry registry = JobRegistry.of(Arrays.stream(jobs).map(job -> new RegisteredJob(job, "test")).toList());
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);
        new ScheduleSync(scheduler, registry, clock, transactions, new RuntimeJobStore(jdbc, json, registry), catalog,
                triggers, new Orphans(catalog, judgements, nodes, transactions, jdbc, dataSource),
                new DatabaseStartup(StartupProperties.DEFAULTS))
                .afterSingletonsInstantiated();
    }

    private static PeriodicJob job(String name, long everySeconds) {
        return Jobs.periodic(name, Schedule.every(Duration.ofSeconds(everySeconds))).execute(ctx -> { });
    }

    /** A runtime job, as the admin API defines one: it shares its schedule's trigger with its like. */
    private PeriodicJob declared(String name, long everySeconds) {
        return new RuntimeJobStore(jdbc, json, JobRegistry.of(List.of())).runtimeJob(Definition.builder(name)
                .every(everySeconds + "s").task("declared.task").build());
    }

    private List<String> rowVersions() {
        return jdbc.sql("SELECT name || ' ' || xmin::text || ' ' || xmax::text FROM onebeat_job ORDER BY name")
                .query(String.class).list();
    }

    private List<String> scheduleTriggers() throws SchedulerException {
        return scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(QuartzTriggers.SCHEDULE_GROUP)).stream()
                .map(TriggerKey::getName).toList();
    }

    private Instant nextFire(PeriodicJob job) throws SchedulerException {
        return scheduler.getTrigger(QuartzTriggers.scheduleTrigger(ScheduleKeys.key(job))).getNextFireTime().toInstant();
    }
}
