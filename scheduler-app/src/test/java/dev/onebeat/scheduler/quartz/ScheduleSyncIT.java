package dev.onebeat.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.registry.JobRegistry;
import dev.onebeat.scheduler.registry.RegisteredJob;
import dev.onebeat.scheduler.registry.RuntimeJobStore;
import dev.onebeat.testsupport.PostgresExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.impl.matchers.GroupMatcher;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

@ExtendWith(PostgresExtension.class)
// closes the context, and its running scheduler, before the extension drops the database
@DirtiesContext
@SpringBootTest(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class ScheduleSyncIT {

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, ScheduleSyncIT.class);
    }

    @Autowired
    Scheduler scheduler;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    JsonMapper json;

    @AfterEach
    void clear() throws SchedulerException {
        scheduler.clear();
    }

    @Test
    void unchangedScheduleKeepsItsNextFireTime() throws SchedulerException {
        sync(NOW, job("report", 3600));
        Instant first = nextFire("report");

        sync(NOW.plus(Duration.ofHours(5)), job("report", 3600));

        assertThat(nextFire("report")).isEqualTo(first);
    }

    @Test
    void changedScheduleIsReplaced() throws SchedulerException {
        sync(NOW, job("report", 3600));

        sync(NOW.plus(Duration.ofHours(5)), job("report", 60));

        assertThat(nextFire("report")).isAfter(NOW.plus(Duration.ofHours(5)));
        assertThat(scheduler.getTrigger(QuartzTriggers.triggerKey("report")).getJobDataMap()
                .getString(QuartzTriggers.SIGNATURE)).isEqualTo("every 60s misfire=FIRE_ONCE_NOW");
    }

    @Test
    void pausedTriggerStaysPausedWhenItsScheduleChanges() throws SchedulerException {
        sync(NOW, job("report", 3600));
        scheduler.pauseTrigger(QuartzTriggers.triggerKey("report"));

        sync(NOW, job("report", 60));

        assertThat(state("report")).isEqualTo(Trigger.TriggerState.PAUSED);
    }

    @Test
    void jobNoLongerRegisteredIsPausedNotDeletedAndResumedWhenRegisteredAgain() throws SchedulerException {
        sync(NOW, job("kept", 60), job("retired", 60));

        sync(NOW, job("kept", 60));

        assertThat(scheduler.checkExists(QuartzTriggers.jobKey("retired"))).isTrue();
        assertThat(state("retired")).isEqualTo(Trigger.TriggerState.PAUSED);
        assertThat(state("kept")).isEqualTo(Trigger.TriggerState.NORMAL);

        sync(NOW, job("kept", 60), job("retired", 60));

        assertThat(state("retired")).isEqualTo(Trigger.TriggerState.NORMAL);
    }

    @Test
    void replicasSyncingAtOnceLeaveOneJobAndTriggerEach() throws Exception {
        PeriodicJob[] jobs = {job("a", 10), job("b", 20), job("c", 30)};
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

        assertThat(scheduler.getJobKeys(GroupMatcher.jobGroupEquals(QuartzTriggers.GROUP)))
                .extracting(JobKey::getName).containsExactlyInAnyOrder("a", "b", "c");
        for (String name : List.of("a", "b", "c")) {
            assertThat(scheduler.getTriggersOfJob(QuartzTriggers.jobKey(name))).hasSize(1);
        }
    }

    private void sync(Instant now, PeriodicJob... jobs) {
        JobRegistry registry = JobRegistry.of(Arrays.stream(jobs).map(job -> new RegisteredJob(job, "test")).toList());
        new ScheduleSync(scheduler, registry, Clock.fixed(now, ZoneOffset.UTC), transactions,
                new RuntimeJobStore(jdbc, json, registry)).afterSingletonsInstantiated();
    }

    private static PeriodicJob job(String name, long everySeconds) {
        return Jobs.periodic(name, Schedule.every(Duration.ofSeconds(everySeconds))).execute(ctx -> { });
    }

    private Instant nextFire(String name) throws SchedulerException {
        return scheduler.getTrigger(QuartzTriggers.triggerKey(name)).getNextFireTime().toInstant();
    }

    private Trigger.TriggerState state(String name) throws SchedulerException {
        return scheduler.getTriggerState(QuartzTriggers.triggerKey(name));
    }
}
