package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Many jobs of one instant fired in one transaction: each still fires once, alone if it fails. */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class BatchFireIT {

    private static final Instant T = Instant.parse("2026-11-29T08:00:00Z");


    @Autowired
    BatchFire batches;
    @Autowired
    FirePath firePath;
    @Autowired
    LockProvider locks;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    MeterRegistry meters;
    @Autowired
    DataSource dataSource;
    @Autowired
    FireAttempts attempts;

    @BeforeEach
    void effects() {
        // the context and its database are shared: tasks and fires other classes left are not this class's
        jdbc.sql("TRUNCATE onebeat_fire, onebeat_task, shedlock").update();
        jdbc.sql("CREATE TABLE business_effect (job text)").update();
    }

    @AfterEach
    void cleanUp() {
        jdbc.sql("TRUNCATE onebeat_fire, onebeat_task, shedlock").update();
        jdbc.sql("DROP TABLE business_effect").update();
        meters.clear();
    }

    @Test
    void everyJobOfTheBatchFiresOnceWithItsLedgerRowAndItsTask() {
        BatchFire.Outcome outcome = batches.fire(jobs(5, -1), FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(outcomes(outcome)).containsOnlyKeys(FireOutcome.COMMITTED);
        assertThat(outcomes(outcome).get(FireOutcome.COMMITTED)).hasSize(5);
        assertThat(outcome.notFired()).isEmpty();
        assertThat(jdbc.sql("SELECT job_name FROM onebeat_fire WHERE scheduled_at = ? ORDER BY 1").param(Timestamp.from(T))
                .query(String.class).list()).containsExactly("job-0", "job-1", "job-2", "job-3", "job-4");
        assertThat(jdbc.sql("SELECT idempotency_key FROM onebeat_task WHERE job_name = 'job-3'").query(String.class)
                .single()).isEqualTo("job-3/2026-11-29T08:00:00Z/batch.task/item:3");
        assertThat(jdbc.sql("SELECT sum(task_count) FROM onebeat_fire").query(Integer.class).single()).isEqualTo(5);
        assertThat(jdbc.sql("SELECT count(*) FROM business_effect").query(Integer.class).single()).isEqualTo(5);
    }

    @Test
    void oneFailingJobOfABatchRollsBackAloneAndIsCountedFailed() {
        BatchFire.Outcome outcome = batches.fire(jobs(5, 2), FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(outcomes(outcome).get(FireOutcome.FAILED)).containsExactly("job-2");
        assertThat(outcomes(outcome).get(FireOutcome.COMMITTED)).containsExactly("job-0", "job-1", "job-3", "job-4");
        assertThat(jdbc.sql("SELECT job FROM business_effect ORDER BY 1").query(String.class).list())
                .as("the failing job's own write is rolled back, the others' kept")
                .containsExactly("job-0", "job-1", "job-3", "job-4");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = 'job-2'").query(Integer.class).single())
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name = 'job-2'").query(Integer.class).single())
                .isZero();
        assertThat(meters.get("onebeat.fires").tag("job", "job-2").tag("outcome", "failed").counter().count())
                .isEqualTo(1);

        FireResult again = firePath.fire(jobs(5, -1).get(2), FireRequest.of(T, FireTrigger.RECOVERY, "node-b"));

        assertThat(again.outcome()).as("the failed instant can fire again").isEqualTo(FireOutcome.COMMITTED);
    }

    @Test
    void jobWhoseLockAFireHoldsIsLeftToBeFiredAlone() {
        Optional<SimpleLock> held = locks.lock(new LockConfiguration(Instant.now(), JobLocks.PREFIX + "job-1",
                Duration.ofMinutes(1), Duration.ZERO));
        assertThat(held).isPresent();
        try {
            BatchFire.Outcome outcome = batches.fire(jobs(3, -1), FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

            assertThat(outcome.notFired()).extracting(PeriodicJob::name).containsExactly("job-1");
            assertThat(outcomes(outcome).get(FireOutcome.COMMITTED)).containsExactly("job-0", "job-2");
        } finally {
            held.get().unlock();
        }
    }

    @Test
    void batchOfAnInstantAlreadyFiredRunsNothingAndCountsDuplicates() {
        batches.fire(jobs(3, -1), FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        BatchFire.Outcome again = batches.fire(jobs(3, -1), FireRequest.of(T, FireTrigger.RECOVERY, "node-b"));

        assertThat(outcomes(again)).containsOnlyKeys(FireOutcome.DUPLICATE);
        assertThat(jdbc.sql("SELECT count(*) FROM business_effect").query(Integer.class).single()).isEqualTo(3);
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task").query(Integer.class).single()).isEqualTo(3);
    }

    @Test
    void batchOfTheSchedulesFireRunsNothingForAJobWhoseInstantIsRecordedSkipped() {
        // job-1's instant was skipped by a fire of it that found the previous one running; the schedule's fire of the
        // instant then comes again (a recovery) as a batch: job-1's instant keeps its one outcome
        attempts.skipped(List.of("job-1"), T, FireAttempts.SkipReason.OVERLAP, FireTrigger.SCHEDULED, "node-a");
        try {
            BatchFire.Outcome outcome = batches.fire(jobs(3, -1), FireRequest.of(T, FireTrigger.RECOVERY, "node-b"));

            assertThat(outcomes(outcome).get(FireOutcome.DUPLICATE)).containsExactly("job-1");
            assertThat(outcomes(outcome).get(FireOutcome.COMMITTED)).containsExactly("job-0", "job-2");
            assertThat(jdbc.sql("SELECT job FROM business_effect ORDER BY 1").query(String.class).list())
                    .containsExactly("job-0", "job-2");
            assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = 'job-1'").query(Integer.class)
                    .single()).isZero();
        } finally {
            jdbc.sql("DELETE FROM onebeat_fire_attempt WHERE job_name = 'job-1' AND outcome = 'skipped'").update();
        }
    }

    @Test
    void batchWhoseTransactionFailsHandsEveryJobBackToBeFiredAlone() {
        jdbc.sql("""
                CREATE FUNCTION refuse_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'outbox refused'; END $$""").update();
        jdbc.sql("CREATE TRIGGER refuse_tasks BEFORE INSERT ON onebeat_task FOR EACH STATEMENT "
                + "EXECUTE FUNCTION refuse_tasks()").update();
        try {
            BatchFire.Outcome outcome = batches.fire(jobs(3, -1), FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

            assertThat(outcome.results()).isEmpty();
            assertThat(outcome.notFired()).extracting(PeriodicJob::name).containsExactly("job-0", "job-1", "job-2");
            assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire").query(Integer.class).single()).isZero();
            assertThat(jdbc.sql("SELECT count(*) FROM business_effect").query(Integer.class).single()).isZero();
        } finally {
            jdbc.sql("DROP TRIGGER refuse_tasks ON onebeat_task").update();
            jdbc.sql("DROP FUNCTION refuse_tasks()").update();
        }
    }

    @Test
    void aBatchLeavesTheLockRowsOfItsJobsAsItFoundThem() {
        batches.fire(jobs(3, -1), FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));
        List<String> rows = lockRows();
        assertThat(rows).hasSize(3);

        BatchFire.Outcome next = batches.fire(jobs(3, -1), FireRequest.of(T.plusSeconds(60), FireTrigger.SCHEDULED,
                "node-b"));

        assertThat(outcomes(next).get(FireOutcome.COMMITTED)).containsExactly("job-0", "job-1", "job-2");
        assertThat(lockRows()).as("locked, not written: the same row versions (xmin), holder and times")
                .isEqualTo(rows);
    }

    @Test
    void aShedLockLockOfAJobOfTheBatchWaitsForTheBatchToCommitAndThenTakesIt() throws Exception {
        batches.fire(jobs(2, -1), FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));
        ExecutorService other = Executors.newSingleThreadExecutor();
        AtomicReference<Future<Optional<SimpleLock>>> lock = new AtomicReference<>();
        AtomicBoolean waited = new AtomicBoolean();
        PeriodicJob first = Jobs.periodic("job-0", Schedule.every(Duration.ofSeconds(60))).execute(ctx -> {
            // another replica's single fire of job-1 takes its ShedLock lock while the batch holds the row
            lock.set(other.submit(() -> locks.lock(new LockConfiguration(Instant.now(), JobLocks.PREFIX + "job-1",
                    Duration.ofMinutes(1), Duration.ZERO))));
            waited.set(lockWaits(Duration.ofSeconds(20)));
        });
        try {
            BatchFire.Outcome outcome = batches.fire(List.of(first, jobs(2, -1).get(1)),
                    FireRequest.of(T.plusSeconds(60), FireTrigger.SCHEDULED, "node-a"));

            assertThat(outcomes(outcome).get(FireOutcome.COMMITTED)).containsExactly("job-0", "job-1");
            assertThat(waited).as("the lock waited on the batch's row lock").isTrue();
            Optional<SimpleLock> taken = lock.get().get(30, TimeUnit.SECONDS);
            assertThat(taken).as("and took the lock, free, once the batch committed").isPresent();
            taken.get().unlock();
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void aLedgerRowWrittenDuringTheBatchByAFireThatTookNoLockFailsTheBatchAndItsJobsFireAlone() {
        PeriodicJob intruding = Jobs.periodic("job-0", Schedule.every(Duration.ofSeconds(60))).execute(ctx -> {
            // in a transaction of its own: a fire of job-2 that, against the rules, took no lock
            try (Connection own = dataSource.getConnection();
                 PreparedStatement insert = own.prepareStatement("""
                         INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                         VALUES ('job-2', ?, now(), 'intruder', 'scheduled', 'committed')""")) {
                insert.setTimestamp(1, Timestamp.from(T));
                insert.executeUpdate();
            }
            ctx.dispatch(TaskRequest.builder("batch.task").entity("item", 0).build());
        });
        List<PeriodicJob> jobs = new ArrayList<>(jobs(3, -1));
        jobs.set(0, intruding);

        BatchFire.Outcome outcome = batches.fire(jobs, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(outcome.results()).as("the ledger's unique key failed the whole batch").isEmpty();
        assertThat(outcome.notFired()).extracting(PeriodicJob::name).containsExactly("job-0", "job-1", "job-2");
        assertThat(jdbc.sql("SELECT job_name || ' ' || node FROM onebeat_fire").query(String.class).list())
                .containsExactly("job-2 intruder");
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task").query(Integer.class).single()).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM business_effect").query(Integer.class).single()).isZero();
        assertThat(meters.find("onebeat.fire.failed").counters()).as("not counted as the database failing").isEmpty();

        List<FireOutcome> alone = jobs(3, -1).stream()
                .map(job -> firePath.fire(job, FireRequest.of(T, FireTrigger.RECOVERY, "node-a")).outcome()).toList();
        assertThat(alone).containsExactly(FireOutcome.COMMITTED, FireOutcome.COMMITTED, FireOutcome.DUPLICATE);
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task").query(Integer.class).single()).isEqualTo(2);
    }

    /** @return the lock rows, each as its name, row version, times and holder */
    private List<String> lockRows() {
        return jdbc.sql("SELECT name || ' ' || xmin || ' ' || lock_until || ' ' || locked_at || ' ' || locked_by "
                + "FROM shedlock ORDER BY name").query(String.class).list();
    }

    /** @return whether a session came to wait on a row lock within {@code within}, read outside the batch */
    private boolean lockWaits(Duration within) throws Exception {
        long until = System.nanoTime() + within.toNanos();
        try (Connection own = dataSource.getConnection();
             PreparedStatement waiting = own.prepareStatement(
                     "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")) {
            while (System.nanoTime() < until) {
                try (ResultSet rs = waiting.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return true;
                    }
                }
                Thread.sleep(20);
            }
            return false;
        }
    }

    /** Jobs that write a row of their own and dispatch one task; the one at {@code failing} then throws. */
    private static List<PeriodicJob> jobs(int count, int failing) {
        List<PeriodicJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            String name = "job-" + i;
            jobs.add(Jobs.periodic(name, Schedule.every(Duration.ofSeconds(60))).execute(ctx -> {
                try (PreparedStatement effect = ctx.connection().prepareStatement(
                        "INSERT INTO business_effect VALUES (?)")) {
                    effect.setString(1, name);
                    effect.executeUpdate();
                }
                ctx.dispatch(TaskRequest.builder("batch.task").entity("item", index).build());
                if (index == failing) {
                    throw new IllegalStateException("job " + name + " failed after its writes");
                }
            }));
        }
        return jobs;
    }

    private static Map<FireOutcome, List<String>> outcomes(BatchFire.Outcome outcome) {
        return outcome.results().stream().collect(Collectors.groupingBy(
                FireResult::outcome, Collectors.mapping(FireResult::job, Collectors.toList())));
    }
}
