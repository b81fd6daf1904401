package dev.onebeat.scheduler.engine.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.onebeat.job.Jobs;
import dev.onebeat.job.OverlapPolicy;
import dev.onebeat.job.PeriodicJob;
import dev.onebeat.job.Schedule;
import dev.onebeat.job.TaskRequest;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SettableClock;
import dev.onebeat.testsupport.PostgresExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
// closes the context, and its running scheduler, before the extension drops the database
@DirtiesContext
@SpringBootTest(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.fire.batch-size=1000"})
class FirePathIT {

    private static final Instant T = Instant.parse("2026-11-29T08:00:00Z");
    /** A replica that checks in to the cluster (a row the test writes), so that the fires it holds count as running. */
    private static final String LIVE_NODE = "live-node";
    /** A live replica whose clock is a minute behind the database's. */
    private static final String SLOW_CLOCK_NODE = "slow-clock-node";
    /** A replica that died, whose clock was ten minutes ahead of the database's. */
    private static final String DEAD_FAST_CLOCK_NODE = "dead-fast-clock-node";

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, FirePathIT.class);
    }

    @Autowired
    FirePath firePath;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    MeterRegistry meters;
    @Autowired
    LockProvider lockProvider;
    @Autowired
    DataSource dataSource;
    @Autowired
    FireAttempts attempts;
    @Autowired
    FireServices services;
    @Autowired
    JobLocks locks;

    private final ExecutorService threads = Executors.newFixedThreadPool(3);

    @AfterEach
    void cleanUp() {
        threads.shutdownNow();
        jdbc.sql("TRUNCATE onebeat_fire, onebeat_task, shedlock").update();
        jdbc.sql("DELETE FROM qrtz_scheduler_state WHERE instance_name IN (?, ?, ?)")
                .params(LIVE_NODE, SLOW_CLOCK_NODE, DEAD_FAST_CLOCK_NODE).update();
        jdbc.sql("DROP TABLE IF EXISTS business_effect").update();
        meters.clear();
    }

    @Test
    void committedFireRecordsLedgerRowAndEveryTaskUnderItsKey() {
        FireResult result = firePath.fire(fanOut("invoice-reminders", 100, new AtomicInteger()),
                FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(result.outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(result.dispatched()).isEqualTo(100);
        assertThat(ledgerRows("invoice-reminders")).isEqualTo(1);
        assertThat(jdbc.sql("SELECT idempotency_key FROM onebeat_task ORDER BY id LIMIT 1").query(String.class).single())
                .isEqualTo("invoice-reminders/2026-11-29T08:00:00Z/send_reminder/order:0");
        assertThat(jdbc.sql("SELECT payload::text FROM onebeat_task ORDER BY id LIMIT 1").query(String.class).single())
                .isEqualTo("{\"args\": [0], \"kwargs\": {\"scheduled\": \"2026-11-29T08:00:00Z\"}}");
        assertThat(counter("onebeat.fires", "committed")).isEqualTo(1);
        assertThat(meters.get("onebeat.tasks.dispatched").tag("job", "invoice-reminders").counter().count())
                .isEqualTo(100);
    }

    @Test
    void aTasksDeliveryOptionsGoInItsPayloadAndTheSchedulesOwnFiresCountTheirExpiryFromTheInstant() {
        PeriodicJob job = expiring("expiring");

        firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));
        firePath.fire(job, FireRequest.of(T.plusSeconds(3600), FireTrigger.RETRY, "node-a").withAttempt(2));
        firePath.fire(job, FireRequest.of(T.plusSeconds(7200), FireTrigger.RECOVERY, "node-a"));

        assertThat(jdbc.sql("SELECT payload::text FROM onebeat_task WHERE job_name = 'expiring' ORDER BY id")
                .query(String.class).list()).as("no expires_from: the expiry counts from each instant")
                .containsOnly("{\"args\": [], \"kwargs\": {}, \"delivery\": {\"expires\": \"PT30M\", \"priority\": 7}}")
                .hasSize(3);
    }

    @Test
    void aRunNowCountsItsTasksExpiryFromTheMomentItFires() {
        Instant before = Instant.now();

        firePath.fire(expiring("expiring-run-now"), new FireRequest(T, FireTrigger.MANUAL, "node-a", "request-1", 1));

        String expiresFrom = jdbc.sql("SELECT payload->'delivery'->>'expires_from' FROM onebeat_task"
                + " WHERE job_name = 'expiring-run-now'").query(String.class).single();
        assertThat(Instant.parse(expiresFrom)).isBetween(before, Instant.now());
        assertThat(jdbc.sql("SELECT payload->'delivery'->>'expires' FROM onebeat_task WHERE job_name = 'expiring-run-now'")
                .query(String.class).single()).isEqualTo("PT30M");
    }

    private static PeriodicJob expiring(String name) {
        return Jobs.periodic(name, Schedule.every(Duration.ofHours(1))).execute(context ->
                context.dispatch(TaskRequest.builder("reports.build").expires(Duration.ofMinutes(30)).priority(7).build()));
    }

    @Test
    void secondFireOfSameScheduledTimeIsRecordedAsDuplicate(CapturedOutput output) {
        AtomicInteger runs = new AtomicInteger();
        PeriodicJob job = fanOut("reminders", 10, runs);

        firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));
        FireResult second = firePath.fire(job, FireRequest.of(T, FireTrigger.RECOVERY, "node-b"));

        assertThat(second.outcome()).isEqualTo(FireOutcome.DUPLICATE);
        assertThat(runs).hasValue(1);
        assertThat(taskRows()).isEqualTo(10);
        assertThat(counter("onebeat.fires", "duplicate")).isEqualTo(1);
        assertThat(output).contains("duplicate fire suppressed job=reminders scheduledAt=2026-11-29T08:00:00Z node=node-b");
    }

    @Test
    void forcedDoubleFireBypassingLockCommitsOnceAndCountsTheOtherAsDuplicate() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PeriodicJob slow = Jobs.periodic("double-fire", Schedule.every(Duration.ofSeconds(1))).execute(ctx -> {
            runs.incrementAndGet();
            for (int i = 0; i < 50; i++) {
                ctx.dispatch(TaskRequest.builder("t").entity("e", i).build());
            }
            // keep the first transaction open so the second one's ledger insert must wait on the unique index
            Thread.sleep(500);
        });
        CyclicBarrier start = new CyclicBarrier(2);
        Callable<FireResult> fire = () -> {
            start.await();
            return firePath.fireLocked(slow,
                    FireRequest.of(T, FireTrigger.MANUAL, Thread.currentThread().getName()), Instant.now());
        };

        List<FireResult> results = Stream.of(threads.submit(fire), threads.submit(fire)).map(FirePathIT::join).toList();

        assertThat(results).extracting(FireResult::outcome)
                .containsExactlyInAnyOrder(FireOutcome.COMMITTED, FireOutcome.DUPLICATE);
        assertThat(runs).hasValue(1);
        assertThat(ledgerRows("double-fire")).isEqualTo(1);
        assertThat(taskRows()).isEqualTo(50);
        assertThat(counter("onebeat.fires", "duplicate")).isEqualTo(1);
    }

    @Test
    void concurrentFiresThroughTheLockRunTheJobOnce() {
        AtomicInteger runs = new AtomicInteger();
        PeriodicJob job = Jobs.periodic("locked", Schedule.every(Duration.ofSeconds(1)))
                .lockAtMostFor(Duration.ofSeconds(5))
                .execute(ctx -> {
                    runs.incrementAndGet();
                    ctx.dispatch(TaskRequest.of("t", "q"));
                    Thread.sleep(300);
                });
        CyclicBarrier start = new CyclicBarrier(2);
        Callable<FireResult> fire = () -> {
            start.await();
            return firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, Thread.currentThread().getName()));
        };

        List<FireResult> results = Stream.of(threads.submit(fire), threads.submit(fire)).map(FirePathIT::join).toList();

        assertThat(results).extracting(FireResult::outcome)
                .containsExactlyInAnyOrder(FireOutcome.COMMITTED, FireOutcome.DUPLICATE);
        assertThat(runs).hasValue(1);
        assertThat(taskRows()).isEqualTo(1);
    }

    @Test
    void fireThatOutlivesLockAtMostForLeavesTheLockOfItsSuccessorAlone(CapturedOutput output) throws Exception {
        CountDownLatch successorHoldsTheLock = new CountDownLatch(1);
        CountDownLatch firstRuns = new CountDownLatch(1);
        PeriodicJob overrun = Jobs.periodic("overrun", Schedule.every(Duration.ofSeconds(1)))
                .lockAtMostFor(Duration.ofMillis(500))
                .execute(ctx -> {
                    firstRuns.countDown();
                    successorHoldsTheLock.await(30, TimeUnit.SECONDS);
                });
        Future<FireResult> first = threads.submit(() -> firePath.fire(overrun,
                FireRequest.of(T, FireTrigger.SCHEDULED, "node-a")));
        // the first fire holds the lock before anything else tries it (on a loaded machine the successor below could
        // otherwise take the lock first, and the first fire would wait for it)
        assertThat(firstRuns.await(30, TimeUnit.SECONDS)).as("the first fire runs, holding the lock").isTrue();
        // the first fire's lock expires after 500 ms while it still runs; another fire takes the lock over
        Optional<SimpleLock> successor = Optional.empty();
        for (int attempt = 0; attempt < 100 && successor.isEmpty(); attempt++) {
            Thread.sleep(50);
            successor = lockProvider.lock(new LockConfiguration(Instant.now(), JobLocks.PREFIX + "overrun",
                    Duration.ofMinutes(1), Duration.ZERO));
        }
        assertThat(successor).as("the expired lock taken over").isPresent();
        successorHoldsTheLock.countDown();

        assertThat(join(first).outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(jdbc.sql("SELECT lock_until > timezone('utc', CURRENT_TIMESTAMP) FROM shedlock WHERE name = ?")
                .param(JobLocks.PREFIX + "overrun").query(Boolean.class).single())
                .as("the successor still holds the lock").isTrue();
        assertThat(output).contains("lock outlived lockAtMostFor, left to its new holder job=overrun");
        successor.get().unlock();
    }

    @Test
    void scheduledInstantMeetingTheRunningScheduledFireOfAnEarlierInstantIsSkippedUnderSkip() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        PeriodicJob job = blockingUntil("overlapping", release);
        Instant first = liveNodeAndAnInstant();
        Future<FireResult> running = holdingTheLock(job, FireRequest.of(first, FireTrigger.SCHEDULED, LIVE_NODE));

        FireResult next = firePath.fire(job, FireRequest.of(dueWhileTheLockIsHeld(), FireTrigger.SCHEDULED, LIVE_NODE));
        release.countDown();

        assertThat(next.outcome()).isEqualTo(FireOutcome.SKIPPED);
        assertThat(join(running).outcome()).isEqualTo(FireOutcome.COMMITTED);
    }

    @Test
    void anInstantRecordedSkippedIsSettledForTheSchedulesLaterFiresOfItButNotForAnOperatorsBackfill() throws Exception {
        // the schedule's fire of an instant skips it, the previous fire still running; another fire of the instant
        // comes later (a recovery of the fire that skipped it, a second fire of it on another replica, a retry):
        // the instant keeps its one outcome, skipped, and the job does not run for it
        CountDownLatch release = new CountDownLatch(1);
        PeriodicJob job = blockingUntil("skipped-then-fired-again", release);
        Instant first = liveNodeAndAnInstant();
        Future<FireResult> running = holdingTheLock(job, FireRequest.of(first, FireTrigger.SCHEDULED, LIVE_NODE));
        Instant due = dueWhileTheLockIsHeld();
        assertThat(firePath.fire(job, FireRequest.of(due, FireTrigger.SCHEDULED, LIVE_NODE)).outcome())
                .isEqualTo(FireOutcome.SKIPPED);
        release.countDown();
        assertThat(join(running).outcome()).isEqualTo(FireOutcome.COMMITTED);

        for (FireRequest again : List.of(FireRequest.of(due, FireTrigger.RECOVERY, "other-node"),
                FireRequest.of(due, FireTrigger.SCHEDULED, "other-node"),
                FireRequest.of(due, FireTrigger.MISFIRE, "other-node"),
                new FireRequest(due, FireTrigger.RETRY, "other-node", null, 2))) {
            assertThat(firePath.fire(job, again).outcome()).as(again.trigger() + " of the skipped instant")
                    .isEqualTo(FireOutcome.DUPLICATE);
        }
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ?")
                .params(job.name(), Timestamp.from(due)).query(Integer.class).single()).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name = ?").param(job.name())
                .query(Integer.class).single()).as("only the first instant's task").isEqualTo(1);

        FireResult backfill = firePath.fire(job, FireRequest.of(due, FireTrigger.BACKFILL, LIVE_NODE).withAttempt(2));
        assertThat(backfill.outcome()).as("an operator's backfill is what fires a skipped instant")
                .isEqualTo(FireOutcome.COMMITTED);
    }

    @Test
    void aSkipRecordedLateIsDroppedWhenTheFireItMetHasReleasedTheLockAndTheInstantFiresOnce(CapturedOutput output)
            throws Exception {
        // replica A judges an instant overlapping (the previous instant's fire holds the lock), but cannot record the
        // skip (its writes fail, as with killed sessions) and keeps trying; meanwhile the previous fire ends and a
        // recovery of the instant on replica B takes the lock and runs. A's skip, recorded then, would give the
        // instant two outcomes: it is not recorded, and A waits for the lock and finds the instant fired
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch releaseRecovery = new CountDownLatch(1);
        Instant first = liveNodeAndAnInstant();
        PeriodicJob job = Jobs.periodic("skip-recorded-late", Schedule.every(Duration.ofMinutes(1)))
                .overlapPolicy(OverlapPolicy.SKIP)
                .lockAtMostFor(Duration.ofSeconds(30))
                .execute(ctx -> {
                    ctx.dispatch(TaskRequest.of("t", "q"));
                    (ctx.scheduledAt().equals(first) ? releaseFirst : releaseRecovery).await(30, TimeUnit.SECONDS);
                });
        // the latches are released before the refusal is removed: a fire parked in its job holds its transaction open,
        // which the removal's DROP would wait for
        try (SkipRefusal refusal = refusingSkipsOf(job);
             Released released = new Released(releaseFirst, releaseRecovery)) {
            Future<FireResult> running = holdingTheLock(job, FireRequest.of(first, FireTrigger.SCHEDULED, LIVE_NODE));
            Instant due = dueWhileTheLockIsHeld();
            Future<FireResult> skipping = threads.submit(() -> firePath.fire(job,
                    FireRequest.of(due, FireTrigger.SCHEDULED, LIVE_NODE)));
            await().atMost(Duration.ofSeconds(20)).until(() -> output.toString().lines().anyMatch(line ->
                    line.contains("could not record skipped instants") && line.contains("jobs=skip-recorded-late")));
            releaseFirst.countDown();
            assertThat(join(running).outcome()).isEqualTo(FireOutcome.COMMITTED);
            Future<FireResult> recovery = threads.submit(() -> firePath.fire(job,
                    FireRequest.of(due, FireTrigger.RECOVERY, "other-node")));
            awaitOneRow("the recovery never held the lock", """
                            SELECT count(*) FROM shedlock WHERE name = ? AND lock_until > timezone('utc', CURRENT_TIMESTAMP)
                              AND locked_by LIKE 'other-node %'""", JobLocks.PREFIX + job.name());
            refusal.lift();
            Thread.sleep(2000);
            assertThat(skipping).as("no skip recorded: it waits for the recovery's lock").isNotDone();
            releaseRecovery.countDown();

            assertThat(join(recovery).outcome()).isEqualTo(FireOutcome.COMMITTED);
            assertThat(join(skipping).outcome()).isEqualTo(FireOutcome.DUPLICATE);
            assertThat(jdbc.sql("""
                            SELECT count(*) FROM onebeat_fire_attempt
                            WHERE job_name = ? AND scheduled_at = ? AND outcome = 'skipped'""")
                    .params(job.name(), Timestamp.from(due)).query(Integer.class).single()).isZero();
        }
    }

    @Test
    void anInstantJudgedOverlappingThatLeftItsCatchUpWindowWhileItsSkipWasTriedIsRecordedOutsideItAndNotFired(
            CapturedOutput output) throws Exception {
        // a replica judges an instant overlapping (the previous instant's fire holds the lock) but cannot record the
        // skip for a while (its writes fail) and keeps trying; meanwhile the previous fire ends and the instant leaves
        // its catch-up window. The skip is not recorded (no fire of another instant holds the lock any more), and
        // the instant is not fired late either: it is recorded skipped, outside its catch-up window
        CountDownLatch releaseFirst = new CountDownLatch(1);
        Instant first = liveNodeAndAnInstant();
        PeriodicJob job = Jobs.periodic("skip-outside-window", Schedule.every(Duration.ofMinutes(1)))
                .overlapPolicy(OverlapPolicy.SKIP)
                .catchUpWindow(Duration.ofMinutes(10))
                .lockAtMostFor(Duration.ofSeconds(30))
                .execute(ctx -> {
                    ctx.dispatch(TaskRequest.of("t", "q"));
                    if (ctx.scheduledAt().equals(first)) {
                        releaseFirst.await(30, TimeUnit.SECONDS);
                    }
                });
        Instant due = dueWhileTheLockIsHeld();
        // this replica's clock, moved past the window while the skip is tried; the locks keep the database's time
        SettableClock clock = new SettableClock(due);
        FirePath late = new FirePath(new FireServices(services.ledger(), services.outbox(), services.transactions(),
                services.dataSource(), services.json(), services.reports(), clock, services.properties(),
                services.arguments(), services.attempts(), services.databaseClock(), services.traces(),
                services.moments()), locks);
        try (SkipRefusal refusal = refusingSkipsOf(job); Released released = new Released(releaseFirst)) {
            Future<FireResult> running = holdingTheLock(job, FireRequest.of(first, FireTrigger.SCHEDULED, LIVE_NODE));
            Future<FireResult> skipping = threads.submit(() -> late.fire(job,
                    FireRequest.of(due, FireTrigger.SCHEDULED, LIVE_NODE)));
            await().atMost(Duration.ofSeconds(20)).until(() -> output.toString().lines().anyMatch(line ->
                    line.contains("could not record skipped instants") && line.contains("jobs=skip-outside-window")));
            // before the lock is released: from then on the skipping fire may look at its window at any moment
            clock.advance(job.catchUpWindow().plusSeconds(1));
            releaseFirst.countDown();
            assertThat(join(running).outcome()).isEqualTo(FireOutcome.COMMITTED);
            refusal.lift();

            assertThat(join(skipping).outcome()).isEqualTo(FireOutcome.SKIPPED);
            assertThat(jdbc.sql("""
                            SELECT reason FROM onebeat_fire_attempt
                            WHERE job_name = ? AND scheduled_at = ? AND outcome = 'skipped'""")
                    .params(job.name(), Timestamp.from(due)).query(String.class).list())
                    .containsExactly(FireAttempts.SkipReason.OUTSIDE_CATCH_UP_WINDOW.text());
            assertThat(jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at = ?")
                    .params(job.name(), Timestamp.from(due)).query(Integer.class).single())
                    .as("not fired after its window").isZero();
            assertThat(jdbc.sql("SELECT count(*) FROM onebeat_task WHERE job_name = ?").param(job.name())
                    .query(Integer.class).single()).as("only the first instant's task").isEqualTo(1);
        }
    }

    /** Releases fires parked in their jobs, when a test ends however it ends. */
    private record Released(CountDownLatch... latches) implements AutoCloseable {

        @Override
        public void close() {
            for (CountDownLatch latch : latches) {
                latch.countDown();
            }
        }
    }

    /** A real fault: the database refuses to record {@code job}'s skips until {@link SkipRefusal#lift}. */
    private SkipRefusal refusingSkipsOf(PeriodicJob job) {
        // refused while skip_refusal has a row: a trigger cannot be dropped while a fire's transaction that read the
        // table is open
        jdbc.sql("CREATE TABLE skip_refusal (refused boolean)").update();
        jdbc.sql("INSERT INTO skip_refusal VALUES (true)").update();
        jdbc.sql("""
                CREATE FUNCTION refuse_skips() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM skip_refusal) THEN RAISE EXCEPTION 'skips refused'; END IF;
                    RETURN NEW;
                END $$""").update();
        jdbc.sql("CREATE TRIGGER refuse_skips BEFORE INSERT ON onebeat_fire_attempt FOR EACH ROW "
                + "WHEN (NEW.outcome = 'skipped' AND NEW.job_name = '" + job.name() + "') "
                + "EXECUTE FUNCTION refuse_skips()").update();
        return new SkipRefusal();
    }

    private final class SkipRefusal implements AutoCloseable {

        void lift() {
            jdbc.sql("DELETE FROM skip_refusal").update();
        }

        @Override
        public void close() {
            lift();
            jdbc.sql("DROP TRIGGER IF EXISTS refuse_skips ON onebeat_fire_attempt").update();
            jdbc.sql("DROP FUNCTION refuse_skips()").update();
            jdbc.sql("DROP TABLE skip_refusal").update();
        }
    }

    @Test
    void aSkipIsNotRecordedForAnInstantAnotherFireOfItCommitted() {
        PeriodicJob job = blockingUntil("committed-then-skipped", new CountDownLatch(0));
        assertThat(firePath.fire(job, FireRequest.of(T, FireTrigger.RECOVERY, "node-b")).outcome())
                .isEqualTo(FireOutcome.COMMITTED);

        attempts.skipped(List.of(job.name(), "never-fired"), T, FireAttempts.SkipReason.OVERLAP,
                FireTrigger.SCHEDULED, LIVE_NODE);
        attempts.skipped(Map.of(FireAttempts.SkipReason.MISSED, Map.of(T,
                List.of(job.name(), "never-fired-either"))), FireTrigger.MISFIRE, LIVE_NODE);

        assertThat(jdbc.sql("""
                        SELECT job_name FROM onebeat_fire_attempt
                        WHERE outcome = 'skipped' AND scheduled_at = ? AND job_name IN (?, ?, ?) ORDER BY 1""")
                .params(Timestamp.from(T), job.name(), "never-fired", "never-fired-either")
                .query(String.class).list())
                .as("the committed instant keeps its one outcome; the others are recorded skipped")
                .containsExactly("never-fired", "never-fired-either");
    }

    @Test
    void aSkipIsNotRecordedForAnInstantAnotherFireOfItAttempted() {
        // another fire of the instant failed (its retry armed, or given up): that chain of attempts is its outcome
        jdbc.sql("""
                        INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, error_class, node,
                                                          trigger_kind, attempted_at)
                        VALUES ('attempted-then-skipped', ?, 1, 'failed', 'java.lang.IllegalStateException', 'node-b',
                                'recovery', now())""")
                .param(Timestamp.from(T)).update();

        attempts.skipped(List.of("attempted-then-skipped", "never-attempted"), T, FireAttempts.SkipReason.OVERLAP,
                FireTrigger.SCHEDULED, LIVE_NODE);
        attempts.skipped(Map.of(FireAttempts.SkipReason.PAUSED, Map.of(T, List.of("attempted-then-skipped"))),
                FireTrigger.MISFIRE, LIVE_NODE);

        assertThat(jdbc.sql("""
                        SELECT job_name FROM onebeat_fire_attempt
                        WHERE outcome = 'skipped' AND scheduled_at = ? AND job_name IN (?, ?) ORDER BY 1""")
                .params(Timestamp.from(T), "attempted-then-skipped", "never-attempted").query(String.class).list())
                .containsExactly("never-attempted");
    }

    @Test
    void scheduledInstantMeetingARecoveryOfAnEarlierInstantWaitsForItInsteadOfBeingSkipped() throws Exception {
        // a replica died mid-fire and a survivor re-runs that instant: the schedule's next instant meets the
        // recovery, which the crash made late, and must not lose its turn to it
        CountDownLatch release = new CountDownLatch(1);
        PeriodicJob job = blockingUntil("recovering", release);
        Instant first = liveNodeAndAnInstant();
        Future<FireResult> recovery = holdingTheLock(job, FireRequest.of(first, FireTrigger.RECOVERY, LIVE_NODE));

        Instant due = dueWhileTheLockIsHeld();
        Future<FireResult> next = threads.submit(() -> firePath.fire(job,
                FireRequest.of(due, FireTrigger.SCHEDULED, LIVE_NODE)));
        Thread.sleep(3000);
        assertThat(next).as("the next instant waits for the recovery").isNotDone();
        release.countDown();

        assertThat(join(recovery).outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(join(next).outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(ledgerRows(job.name())).isEqualTo(2);
    }

    @Test
    void ofTheFiresWaitingForTheLockTheOldestInstantGoesFirst() throws Exception {
        // a survivor recovers an instant a crash interrupted while the schedule's later instants keep falling due:
        // the recovery must not lose every gap between fires to them (and give up), whoever started waiting first
        CountDownLatch release = new CountDownLatch(1);
        List<Instant> order = new CopyOnWriteArrayList<>();
        Instant first = liveNodeAndAnInstant();
        PeriodicJob job = Jobs.periodic("oldest-first", Schedule.every(Duration.ofMinutes(1)))
                .lockAtMostFor(Duration.ofSeconds(30))
                .execute(ctx -> {
                    ctx.dispatch(TaskRequest.of("t", "q"));
                    if (ctx.scheduledAt().equals(first)) {
                        release.await(30, TimeUnit.SECONDS);
                    } else {
                        order.add(ctx.scheduledAt());
                    }
                });
        Future<FireResult> holder = holdingTheLock(job, FireRequest.of(first, FireTrigger.MANUAL, LIVE_NODE));
        Future<FireResult> later = threads.submit(() -> firePath.fire(job,
                FireRequest.of(first.plusSeconds(120), FireTrigger.SCHEDULED, LIVE_NODE)));
        awaitNextWaiter(job, first.plusSeconds(120));
        Future<FireResult> older = threads.submit(() -> firePath.fire(job,
                FireRequest.of(first.plusSeconds(60), FireTrigger.RECOVERY, LIVE_NODE)));
        awaitNextWaiter(job, first.plusSeconds(60));
        release.countDown();

        assertThat(join(holder).outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(join(older).outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(join(later).outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(order).as("the older instant, which began waiting second, took the lock first")
                .containsExactly(first.plusSeconds(60), first.plusSeconds(120));
        assertThat(jdbc.sql("SELECT count(*) FROM shedlock WHERE name = ?").param(JobLocks.NEXT_PREFIX + job.name())
                .query(Integer.class).single()).as("the last waiter left the next-waiter row").isZero();
    }

    private void awaitNextWaiter(PeriodicJob job, Instant instant) throws InterruptedException {
        awaitOneRow("no fire of " + instant + " waits for the lock of " + job.name(),
                "SELECT count(*) FROM shedlock WHERE name = ? AND locked_by = ?",
                JobLocks.NEXT_PREFIX + job.name(), JobLockTable.nextKey(instant));
    }

    /** A job under {@code SKIP} whose fires block until {@code release}. */
    private static PeriodicJob blockingUntil(String name, CountDownLatch release) {
        return Jobs.periodic(name, Schedule.every(Duration.ofMinutes(1)))
                .overlapPolicy(OverlapPolicy.SKIP)
                .lockAtMostFor(Duration.ofSeconds(30))
                .execute(ctx -> {
                    ctx.dispatch(TaskRequest.of("t", "q"));
                    release.await(30, TimeUnit.SECONDS);
                });
    }

    /**
     * Writes {@link #LIVE_NODE}'s check-in, as a replica checking in every ten minutes, so it counts as alive for the
     * test; returns the instant of the first fire.
     */
    private Instant liveNodeAndAnInstant() {
        checkIn(LIVE_NODE, Duration.ZERO, Duration.ofMinutes(10));
        return firstInstant();
    }

    /**
     * An instant that falls due while the first fire holds the lock (2 s from now, waited for: no fire begins before
     * its instant by the database's clock), so the overlap policy judges it against that fire.
     */
    private static Instant dueWhileTheLockIsHeld() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
    }

    /**
     * A whole minute three minutes ago: the tests fire it and the two minutes after it at once, and no fire begins
     * before its instant by the database's clock (a later minute would wait for it).
     */
    private static Instant firstInstant() {
        return Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(3));
    }

    /**
     * Writes a replica's check-in as Quartz does, with the time of a replica clock {@code skew} off the database's
     * ({@code last_checkin_time}); the database stamps when it saw it.
     */
    private void checkIn(String node, Duration skew, Duration interval) {
        jdbc.sql("""
                        INSERT INTO qrtz_scheduler_state (sched_name, instance_name, last_checkin_time, checkin_interval)
                        VALUES ('test', ?, extract(epoch FROM clock_timestamp()) * 1000 + ?, ?)
                        """)
                .params(node, skew.toMillis(), interval.toMillis()).update();
    }

    @Test
    void aScheduledFireOnALiveReplicaWhoseClockIsBehindCountsAsRunningForTheOverlapPolicy() throws Exception {
        // the holder checks in every 10 s and did just now, but writes its check-in a minute in the past by its clock
        checkIn(SLOW_CLOCK_NODE, Duration.ofMinutes(-1), Duration.ofSeconds(10));
        CountDownLatch release = new CountDownLatch(1);
        PeriodicJob job = blockingUntil("slow-clock-holder", release);
        Instant first = firstInstant();
        Future<FireResult> running = threads.submit(() -> firePath.fire(job,
                FireRequest.of(first, FireTrigger.SCHEDULED, SLOW_CLOCK_NODE)));
        awaitLockHeldBy(job, SLOW_CLOCK_NODE);

        Instant due = dueWhileTheLockIsHeld();
        Future<FireResult> next = threads.submit(() -> firePath.fire(job,
                FireRequest.of(due, FireTrigger.SCHEDULED, LIVE_NODE)));
        try {
            assertThat(next.get(10, TimeUnit.SECONDS).outcome()).as("judged against a running fire, under skip")
                    .isEqualTo(FireOutcome.SKIPPED);
        } finally {
            release.countDown();
        }
        assertThat(join(running).outcome()).isEqualTo(FireOutcome.COMMITTED);
    }

    @Test
    void aLockLeftByADeadReplicaWhoseClockRanAheadIsWaitedForNotTakenForARunningFire() {
        // the holder checked in every second until 30 s ago, writing times ten minutes ahead by its clock, then died
        // with the job's lock held for a few more seconds
        checkIn(DEAD_FAST_CLOCK_NODE, Duration.ofMinutes(10), Duration.ofSeconds(1));
        jdbc.sql("""
                        UPDATE qrtz_scheduler_state SET onebeat_checked_in_at = clock_timestamp() - interval '30 seconds'
                        WHERE instance_name = ?
                        """).param(DEAD_FAST_CLOCK_NODE).update();
        PeriodicJob job = blockingUntil("dead-fast-clock-holder", new CountDownLatch(0));
        Instant first = firstInstant();
        jdbc.sql("""
                        INSERT INTO shedlock (name, lock_until, locked_at, locked_by)
                        VALUES (?, timezone('utc', CURRENT_TIMESTAMP) + interval '2 seconds',
                                timezone('utc', CURRENT_TIMESTAMP), ?)
                        """)
                .params(JobLocks.PREFIX + job.name(), JobLockTable.lockedBy(
                        FireRequest.of(first, FireTrigger.SCHEDULED, DEAD_FAST_CLOCK_NODE))).update();

        FireResult next = firePath.fire(job, FireRequest.of(first.plusSeconds(60), FireTrigger.SCHEDULED, LIVE_NODE));

        assertThat(next.outcome()).as("the dead replica's lock freed itself and the instant fired")
                .isEqualTo(FireOutcome.COMMITTED);
    }

    private void awaitLockHeldBy(PeriodicJob job, String node) throws InterruptedException {
        awaitOneRow("the first fire never held the lock of " + job.name(), """
                        SELECT count(*) FROM shedlock WHERE name = ? AND lock_until > timezone('utc', CURRENT_TIMESTAMP)
                          AND locked_by LIKE ? || ' %'
                        """, JobLocks.PREFIX + job.name(), node);
    }

    /** Starts {@code request}, a fire of {@code job} on {@link #LIVE_NODE} that blocks, and waits until it holds the lock. */
    private Future<FireResult> holdingTheLock(PeriodicJob job, FireRequest request) throws InterruptedException {
        Future<FireResult> fire = threads.submit(() -> firePath.fire(job, request));
        awaitLockHeldFor(job);
        return fire;
    }

    private void awaitLockHeldFor(PeriodicJob job) throws InterruptedException {
        awaitOneRow("the first fire never held the lock of " + job.name(), """
                        SELECT count(*) FROM shedlock WHERE name = ? AND lock_until > timezone('utc', CURRENT_TIMESTAMP)
                          AND locked_by LIKE ? || ' %'
                        """, JobLocks.PREFIX + job.name(), LIVE_NODE);
    }

    private void awaitOneRow(String failure, String countSql, Object... params) throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            if (jdbc.sql(countSql).params(params).query(Integer.class).single() == 1) {
                return;
            }
            Thread.sleep(25);
        }
        throw new AssertionError(failure);
    }

    @Test
    void jobThrowingAfterHalfItsTasksCommitsNothingAndTheRetryDispatchesEveryTaskOnce(CapturedOutput output) {
        jdbc.sql("CREATE TABLE business_effect (id int)").update();
        AtomicInteger attempts = new AtomicInteger();
        PeriodicJob flaky = Jobs.periodic("flaky", Schedule.every(Duration.ofSeconds(1))).execute(ctx -> {
            try (PreparedStatement insert = ctx.connection().prepareStatement("INSERT INTO business_effect VALUES (1)")) {
                insert.executeUpdate();
            }
            boolean firstAttempt = attempts.incrementAndGet() == 1;
            for (int i = 0; i < 5000; i++) {
                if (firstAttempt && i == 2500) {
                    throw new IllegalStateException("mail server down");
                }
                ctx.dispatch(TaskRequest.builder("send").entity("order", i).build());
            }
        });

        FireResult failed = firePath.fire(flaky, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(failed.outcome()).isEqualTo(FireOutcome.FAILED);
        assertThat(failed.error()).hasMessage("mail server down");
        assertThat(taskRows()).as("2,000 tasks had been inserted before the failure").isZero();
        assertThat(ledgerRows("flaky")).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM business_effect").query(Integer.class).single()).isZero();
        assertThat(counter("onebeat.fires", "failed")).isEqualTo(1);
        assertThat(output.toString().lines()
                .filter(line -> line.contains("ERROR") && line.contains("job=flaky scheduledAt=2026-11-29T08:00:00Z")))
                .hasSize(1);

        FireResult retried = firePath.fire(flaky, FireRequest.of(T, FireTrigger.RECOVERY, "node-b"));

        assertThat(retried.outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(retried.dispatched()).isEqualTo(5000);
        assertThat(jdbc.sql("SELECT count(DISTINCT idempotency_key) FROM onebeat_task").query(Integer.class).single())
                .isEqualTo(5000);
        assertThat(jdbc.sql("SELECT count(*) FROM business_effect").query(Integer.class).single()).isEqualTo(1);
    }

    @Test
    void sameEntityDispatchedTwiceInOneFireIsInsertedOnceAndCounted() {
        PeriodicJob job = Jobs.periodic("twice", Schedule.every(Duration.ofSeconds(1))).execute(ctx -> {
            ctx.dispatch(TaskRequest.builder("t").entity("order", 1).build());
            ctx.dispatch(TaskRequest.builder("t").entity("order", 1).build());
            ctx.dispatch(TaskRequest.builder("t").entity("order", 2).build());
        });

        FireResult result = firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(result.dispatched()).isEqualTo(2);
        assertThat(result.duplicateTasks()).isEqualTo(1);
        assertThat(jdbc.sql("SELECT duplicate_task_count FROM onebeat_fire").query(Integer.class).single()).isEqualTo(1);
    }

    @Test
    void jobCannotCommitTheFiresTransaction() {
        PeriodicJob sneaky = Jobs.periodic("sneaky", Schedule.every(Duration.ofSeconds(1)))
                .execute(ctx -> ctx.connection().commit());

        FireResult result = firePath.fire(sneaky, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(result.outcome()).isEqualTo(FireOutcome.FAILED);
        assertThat(result.error()).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Connection.commit is refused");
        assertThat(ledgerRows("sneaky")).isZero();
    }

    @Test
    void argumentThatIsNotJsonFailsTheFireNamingTheArgument() {
        PeriodicJob job = Jobs.periodic("bad-args", Schedule.every(Duration.ofSeconds(1)))
                .execute(ctx -> ctx.dispatch(TaskRequest.builder("t").args("ok", new Object()).build()));

        FireResult result = firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a"));

        assertThat(result.outcome()).isEqualTo(FireOutcome.FAILED);
        assertThat(result.error()).hasMessageStartingWith("args[1]: a java.lang.Object is not a JSON value");
    }

    @Test
    void aJobCannotDispatchToTheAlertDeliveriesQueue() {
        PeriodicJob job = Jobs.periodic("forger", Schedule.every(Duration.ofSeconds(1)))
                .execute(ctx -> ctx.dispatch(TaskRequest.of("onebeat.alert.webhook", "onebeat.alerts")));

        FireResult result = firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "n"));

        assertThat(result.outcome()).isEqualTo(FireOutcome.FAILED);
        assertThat(result.error()).hasMessageStartingWith("queue: 'onebeat.alerts' is onebeat's own");
        assertThat(taskRows()).isZero();
    }

    @Test
    void contextConnectionRefusesClose() {
        PeriodicJob job = Jobs.periodic("closer", Schedule.every(Duration.ofSeconds(1)))
                .execute(ctx -> ctx.connection().close());

        assertThat(firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "n")).error())
                .hasMessageContaining("Connection.close is refused");
        assertThatThrownBy(() -> { throw firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "n")).error(); })
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aLockWhoseRowWasDeletedBehindTheProvidersBackIsTakenAtOnce() {
        // the name stays referenced, so ShedLock's weak memory of having created its row cannot forget it here
        String name = JobLocks.PREFIX + "purged-" + System.nanoTime();
        lockProvider.lock(new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow().unlock();
        // as retention purges the lock row of a job no longer in the catalog, or a per-instant lock's release does
        assertThat(jdbc.sql("DELETE FROM shedlock WHERE name = ?").param(name).update()).isOne();

        Optional<SimpleLock> again = lockProvider.lock(new LockConfiguration(Instant.now(), name,
                Duration.ofMinutes(1), Duration.ZERO));

        assertThat(again).as("the lock, its row created again").isPresent();
        assertThat(lockProvider.lock(new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO)))
                .as("a second lock while the first is held").isEmpty();
        again.get().unlock();
    }

    @Test
    void aRetryOfAnInstantUnderAllowTakesTheLockTheFailedAttemptsReleaseDeleted() {
        // overlap policy allow: the lock is per instant, and its row goes when the fire releases it
        AtomicInteger runs = new AtomicInteger();
        PeriodicJob job = Jobs.periodic("allow-retried", Schedule.every(Duration.ofSeconds(1)))
                .overlapPolicy(OverlapPolicy.ALLOW)
                .lockAtMostFor(Duration.ofSeconds(3))
                .execute(ctx -> {
                    if (runs.incrementAndGet() == 1) {
                        throw new IllegalStateException("first attempt fails");
                    }
                });
        assertThat(firePath.fire(job, FireRequest.of(T, FireTrigger.SCHEDULED, "node-a")).outcome())
                .isEqualTo(FireOutcome.FAILED);
        assertThat(jdbc.sql("SELECT count(*) FROM shedlock WHERE name LIKE 'onebeat:allow-retried@%'")
                .query(Integer.class).single()).as("the instant's lock row, deleted as it was released").isZero();

        // a lock still remembered as created would find no row to update: held, as far as this replica knows, until
        // lockAtMostFor and the wait's margin ran out, and then the retry would fail for want of it
        FireResult retry = firePath.fire(job, FireRequest.of(T, FireTrigger.RETRY, "node-a").withAttempt(2));

        assertThat(retry.outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(runs).hasValue(2);
    }

    /**
     * A replica's fault period counts as not written until the write that holds it commits, not from the moment the
     * writer takes it up: the detector waits while one is not written, and a write can wait long for a connection or
     * a lock. Here the table is locked, so the writer's insert waits on it.
     */
    @Test
    void aFaultPeriodWhoseWriteIsWaitingIsUnwrittenUntilTheWriteCommits() throws Exception {
        FireFaults faults = new FireFaults(jdbc, Clock.systemUTC(), new SimpleMeterRegistry());
        String node = "faulted-node";
        try (Connection locker = dataSource.getConnection()) {
            locker.setAutoCommit(false);
            try (Statement statement = locker.createStatement()) {
                statement.execute("LOCK TABLE onebeat_fire_fault IN EXCLUSIVE MODE");
            }
            faults.failed(FireFaults.Stage.FIRE, node, new SQLException("terminating connection"));
            await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("""
                            SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'
                            AND query LIKE 'INSERT INTO onebeat_fire_fault%'""").query(Long.class).single() == 1);

            assertThat(faults.unwritten()).as("its write is waiting").isTrue();
            assertThat(faults.faulting()).isTrue();
            // a failure while the write waits: written at the writer's next turn, the period unwritten until then
            faults.failed(FireFaults.Stage.FIRE, node, new SQLException("terminating connection"));
            locker.rollback();
        } finally {
            await().atMost(Duration.ofSeconds(10)).until(() -> !faults.unwritten());
            faults.destroy();
        }
        assertThat(jdbc.sql("SELECT failures FROM onebeat_fire_fault WHERE node = ?").param(node).query(Integer.class)
                .list()).as("one period, both failures").containsExactly(2);
        assertThat(faults.faulting()).as("until 30 s after its last failure").isTrue();
        jdbc.sql("DELETE FROM onebeat_fire_fault WHERE node = ?").param(node).update();
    }

    /**
     * A period the database did not take is extended by a failure more than {@link FireFaults#LINGER} after the last
     * one, not replaced: a replaced period would never be written, and the misses in it would lack their reason.
     */
    @Test
    void aFaultPeriodNotWrittenIsExtendedByALaterFailureNotReplaced() {
        Instant since = Instant.parse("2026-11-29T09:00:00Z");
        SettableClock clock = new SettableClock(since);
        AtomicBoolean reachable = new AtomicBoolean();
        DataSource refusing = new DelegatingDataSource(dataSource) {
            @Override
            public Connection getConnection() throws SQLException {
                if (!reachable.get()) {
                    throw new SQLException("connection refused");
                }
                return super.getConnection();
            }
        };
        FireFaults faults = new FireFaults(JdbcClient.create(refusing), clock, new SimpleMeterRegistry());
        String node = "unreachable-node";
        try {
            faults.failed(FireFaults.Stage.MEMBERS, node, new SQLException("terminating connection"));
            faults.write();
            clock.advance(FireFaults.LINGER.plusSeconds(10));
            faults.failed(FireFaults.Stage.MEMBERS, node, new SQLException("terminating connection"));
            reachable.set(true);
            faults.write();

            assertThat(faults.unwritten()).isFalse();
        } finally {
            faults.destroy();
        }
        assertThat(jdbc.sql("SELECT since, until, failures FROM onebeat_fire_fault WHERE node = ?").param(node)
                .query((rs, row) -> List.of(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant(),
                        rs.getInt(3))).list())
                .containsExactly(List.of(since, since.plus(FireFaults.LINGER.plusSeconds(10)).plus(FireFaults.LINGER),
                        2));
        jdbc.sql("DELETE FROM onebeat_fire_fault WHERE node = ?").param(node).update();
    }

    private PeriodicJob fanOut(String name, int entities, AtomicInteger runs) {
        return Jobs.periodic(name, Schedule.every(Duration.ofSeconds(1))).execute(ctx -> {
            runs.incrementAndGet();
            for (int i = 0; i < entities; i++) {
                ctx.dispatch(TaskRequest.builder("send_reminder").entity("order", i).args(i)
                        .kwargs(Map.of("scheduled", ctx.scheduledAt().toString())).build());
            }
        });
    }

    private int ledgerRows(String job) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ?").param(job).query(Integer.class).single();
    }

    private int taskRows() {
        return jdbc.sql("SELECT count(*) FROM onebeat_task").query(Integer.class).single();
    }

    private double counter(String name, String outcome) {
        var counter = meters.find(name).tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private static <T> T join(Future<T> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
