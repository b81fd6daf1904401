package dev.onebeat.scheduler.operate.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.operate.admin.AdminConflictException;
import dev.onebeat.scheduler.operate.backfill.Backfills;
import dev.onebeat.scheduler.operate.admin.InstantRuns;
import dev.onebeat.scheduler.engine.fire.FireOutcome;
import dev.onebeat.scheduler.engine.fire.FirePath;
import dev.onebeat.scheduler.engine.fire.FireRequest;
import dev.onebeat.scheduler.engine.fire.FireResult;
import dev.onebeat.scheduler.engine.fire.FireTrigger;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The built-in retention job fired through the fire path over rows the test writes with known ages: what is older
 * than each table's age goes, in batches, a job's latest fires stay, the unfinished outbox rows stay, a fire deletes
 * no more than its cap, and a fire of another job holding rows is neither waited for nor touched.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.monitor.enabled=false", "onebeat.retention.batch-size=100", "onebeat.retention.keep-last-fires=5",
        "onebeat.retention.fires=30d", "onebeat.retention.audit=365d",
        "onebeat.jobs[0].name=ret-job", "onebeat.jobs[0].every=1h", "onebeat.jobs[0].task=t.ret"})
class RetentionIT {

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MINUTES);

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("onebeat.retention.enabled", () -> "true");
    }

    @Autowired
    JobRegistry registry;
    @Autowired
    FirePath firePath;
    @Autowired
    RetentionProperties properties;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    DataSource dataSource;
    @Autowired
    Backfills backfills;
    @Autowired
    InstantRuns instantRuns;

    @BeforeEach
    void rows() {
        jdbc.sql("""
                TRUNCATE onebeat_fire, onebeat_fire_attempt, onebeat_job_event, onebeat_audit, onebeat_trigger_request,
                         onebeat_task, onebeat_throttle, onebeat_fire_horizon, onebeat_backfill, onebeat_job_monitor,
                         onebeat_retention_walk""")
                .update();
        // 'daily': a fire a day for 60 days; 'monthly': one every 30 days for 10 months, all but one older than 30 d
        fires("daily", 60, Duration.ofDays(1));
        fires("monthly", 10, Duration.ofDays(30));
        // 2,500 attempts 100 days old (25 batches of 100) and 10 a day old
        jdbc.sql("""
                INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node, trigger_kind,
                                                  attempted_at)
                SELECT 'daily', ?::timestamptz - n * interval '1 minute', 1, 'skipped', 'paused', 'n1', 'scheduled',
                       ?::timestamptz - n * interval '1 minute'
                FROM generate_series(1, 2500) AS n""").params(ts(days(100)), ts(days(100))).update();
        jdbc.sql("""
                INSERT INTO onebeat_fire_attempt (job_name, scheduled_at, attempt, outcome, reason, node, trigger_kind,
                                                  attempted_at)
                SELECT 'daily', ?::timestamptz - n * interval '1 minute', 1, 'skipped', 'paused', 'n1', 'scheduled', ?
                FROM generate_series(1, 10) AS n""").params(ts(days(1)), ts(days(1))).update();
        jdbc.sql("""
                INSERT INTO onebeat_job_event (job_name, scheduled_at, kind, reason, alerted, node, detected_at)
                VALUES ('daily', ?, 'missed', 'r', true, 'n1', ?), ('daily', ?, 'missed', 'r', true, 'n1', ?)""")
                .params(ts(days(91)), ts(days(91)), ts(days(2)), ts(days(2))).update();
        jdbc.sql("""
                INSERT INTO onebeat_audit (at, actor, action, target_type, target)
                VALUES (?, 'ann', 'job.pause', 'job', 'daily'), (?, 'ann', 'job.pause', 'job', 'daily')""")
                .params(ts(days(400)), ts(days(300))).update();
        jdbc.sql("""
                INSERT INTO onebeat_trigger_request (request_id, job_name, scheduled_at, requested_by, requested_at)
                VALUES ('old', 'daily', ?, 'ann', ?), ('new', 'daily', ?, 'ann', ?)""")
                .params(ts(days(91)), ts(days(91)), ts(days(1)), ts(days(1))).update();
        // outbox: published 8 days ago (goes), published yesterday, failed 31 days ago (goes), pending 100 days ago
        task("published-old", "published", days(8));
        task("published-new", "published", days(1));
        task("failed-old", "failed", days(31));
        task("pending-old", "pending", days(100));
        jdbc.sql("""
                INSERT INTO onebeat_throttle (kind, subject, until) VALUES ('email', 'ran-out', ?), ('email', 'holds', ?)""")
                .params(ts(days(2)), ts(NOW.plus(Duration.ofDays(1)))).update();
    }

    @Test
    void itIsAJobOfTheRegistryFiringEveryTenMinutes() {
        PeriodicJob job = retention();

        assertThat(job.schedule().describe()).isEqualTo("cron 0 0,10,20,30,40,50 * * * ? Z");
        assertThat(properties.fires()).isEqualTo(Duration.ofDays(30));
    }

    @Test
    void aFireDeletesWhatIsOlderThanEachTablesAgeButKeepsEachJobsLatestFires() {
        FireResult fire = firePath.fire(retention(), FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"));

        assertThat(fire.outcome()).isEqualTo(FireOutcome.COMMITTED);
        // daily: the 30 fires of the last 30 days stay
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'daily'")).isEqualTo(30);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'monthly'"))
                .as("older than 30 days, but the latest 5 of the job").isEqualTo(5);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'onebeat-retention'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM onebeat_fire_attempt")).isEqualTo(10);
        assertThat(strings("SELECT detected_at::date::text FROM onebeat_job_event")).hasSize(1);
        assertThat(count("SELECT count(*) FROM onebeat_audit")).isEqualTo(1);
        assertThat(strings("SELECT request_id FROM onebeat_trigger_request")).containsExactly("new");
        assertThat(strings("SELECT idempotency_key FROM onebeat_task ORDER BY 1"))
                .containsExactly("pending-old", "published-new");
        assertThat(strings("SELECT subject FROM onebeat_throttle")).containsExactly("holds");
    }

    @ParameterizedTest(name = "{0} job(s) a slice")
    @ValueSource(ints = {1, 2, 4})
    void theLedgerIsReadAndPurgedASliceOfJobsAtATimeWithTheSameOutcome(int jobsPerSlice) {
        // more jobs than a slice holds, in name order: 'a-kept' (nothing to delete), 'daily', 'monthly',
        // 'onebeat-retention' (this fire's own row), 'y-kept' (nothing), and last 'z-purged', in the last slice
        fires("a-kept", 3, Duration.ofDays(1));
        fires("y-kept", 3, Duration.ofDays(1));
        fires("z-purged", 60, Duration.ofDays(1));
        RetentionJob sliced = new RetentionJob(properties, new SimpleMeterRegistry(), dataSource, jobsPerSlice);

        FireResult fire = firePath.fire(sliced, FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"));

        assertThat(fire.outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'daily'")).isEqualTo(30);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'monthly'")).isEqualTo(5);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'z-purged'")).isEqualTo(30);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name IN ('a-kept', 'y-kept')")).isEqualTo(6);
        assertThat(strings("SELECT job_name FROM onebeat_fire_horizon ORDER BY 1")).as("horizons moved")
                .containsExactly("daily", "monthly", "z-purged");
    }

    @ParameterizedTest(name = "{0} job(s) a slice")
    @ValueSource(ints = {1, 2, 10_000})
    void aJobWhoseOnlyFireOlderThanTheAgeIsItsOldestLosesIt(int jobsPerSlice) {
        // the walk reads a job's cut-off only when its oldest instant is before the horizon: here the one old fire is
        // the oldest, and the job is reached by the walk's first probe and by a later one as the slices change
        fires("a-kept", 3, Duration.ofDays(1));
        fires("b-one-old", 5, Duration.ofDays(1));
        oldFires("b-one-old", 1, 40);
        RetentionJob sliced = new RetentionJob(settings(100, 100_000, 5), new SimpleMeterRegistry(), dataSource,
                jobsPerSlice);

        FireResult fire = firePath.fire(sliced, FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"));

        assertThat(fire.outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'b-one-old'")).isEqualTo(5);
        assertThat(oldCount("b-one-old")).isZero();
        assertThat(jdbc.sql("SELECT purged_through FROM onebeat_fire_horizon WHERE job_name = 'b-one-old'")
                .query(Timestamp.class).single().toInstant()).isEqualTo(days(40));
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'a-kept'")).isEqualTo(3);
    }

    @Test
    void aFireDeletesAtMostItsCapAndTheNextGoesOn() {
        RetentionJob capped = new RetentionJob(settings(100, 1000, 5), new SimpleMeterRegistry(), dataSource);
        long before = count("SELECT count(*) FROM onebeat_fire") + count("SELECT count(*) FROM onebeat_fire_attempt");

        // three instants ten minutes apart, all past: no fire begins before its instant by the database's clock
        firePath.fire(capped, FireRequest.of(NOW.minusSeconds(1800), FireTrigger.SCHEDULED, "n1"));
        long afterOne = count("SELECT count(*) FROM onebeat_fire") + count("SELECT count(*) FROM onebeat_fire_attempt");
        firePath.fire(capped, FireRequest.of(NOW.minusSeconds(1200), FireTrigger.SCHEDULED, "n1"));
        firePath.fire(capped, FireRequest.of(NOW.minusSeconds(600), FireTrigger.SCHEDULED, "n1"));
        long afterThree = count("SELECT count(*) FROM onebeat_fire_attempt");

        // the first fire: 35 fires of the two jobs, then attempts up to 1,000 rows in all; plus its own ledger row
        assertThat(before - afterOne).isEqualTo(1000 - 1);
        assertThat(afterThree).as("three fires of 1,000 worked the backlog off").isEqualTo(10);
    }

    @ParameterizedTest(name = "{0} job(s) a slice")
    @ValueSource(ints = {1, 3, 10})
    void aFireStoppedByItsCapInTheLedgerIsFollowedByOneStartingWhereItStoppedSoEveryJobHasItsTurn(int jobsPerSlice) {
        // a cap of 40 ledger rows, 10 a statement, each job keeping its newest fire
        RetentionJob capped = new RetentionJob(settings(10, 40, 1), new SimpleMeterRegistry(), dataSource, jobsPerSlice);
        // first in name order, before 'daily' (30 fires to delete) and 'monthly' (9): a fire yesterday, which each
        // keeps, and 30 older than 30 days
        for (String job : List.of("a-early", "b-mid", "c-late")) {
            fires(job, 1, Duration.ofDays(1));
            oldFires(job, 30, 40);
        }

        firePath.fire(capped, FireRequest.of(NOW.minusSeconds(1800), FireTrigger.SCHEDULED, "n1"));
        assertThat(oldCount("a-early")).as("the first fire: all of a-early's").isZero();
        assertThat(oldCount("b-mid")).as("and 10 of b-mid's").isEqualTo(20);
        // a-early has more to delete again (older rows restored, or written late): it must wait its turn
        oldFires("a-early", 30, 200);

        firePath.fire(capped, FireRequest.of(NOW.minusSeconds(1200), FireTrigger.SCHEDULED, "n1"));

        assertThat(oldCount("b-mid")).as("the second fire starts at b-mid, where the first stopped").isZero();
        assertThat(oldCount("c-late")).as("and goes on to c-late").isEqualTo(10);
        assertThat(oldCount("a-early")).as("a-early waits").isEqualTo(30);

        firePath.fire(capped, FireRequest.of(NOW.minusSeconds(600), FireTrigger.SCHEDULED, "n1"));

        assertThat(oldCount("c-late")).as("the third: the rest of c-late's").isZero();
        assertThat(oldCount("daily")).as("and daily's").isZero();
        assertThat(oldCount("a-early")).as("a-early still waits").isEqualTo(30);

        firePath.fire(capped, FireRequest.of(NOW.minusSeconds(300), FireTrigger.SCHEDULED, "n1"));

        assertThat(oldCount("monthly")).as("the fourth: monthly's, the last job with rows to delete").isZero();
        assertThat(oldCount("a-early")).as("then round to the first job").isZero();
    }

    /**
     * Where a fire's cap stopped the walk is the database's, not a replica's: a fire on another replica goes on from
     * there, and a fire that rolls back leaves it where the last committed fire put it.
     */
    @Test
    void aWalkStoppedOnOneReplicaGoesOnFromThereOnAnotherAndARolledBackFireLeavesIt() throws SQLException {
        RetentionProperties capOf40 = settings(10, 40, 1);
        RetentionJob onReplica1 = new RetentionJob(capOf40, new SimpleMeterRegistry(), dataSource, 1);
        RetentionJob onReplica2 = new RetentionJob(capOf40, new SimpleMeterRegistry(), dataSource, 1);
        for (String job : List.of("a-early", "b-mid", "c-late")) {
            fires(job, 1, Duration.ofDays(1));
            oldFires(job, 30, 40);
        }
        assertThat(firePath.fire(onReplica1, FireRequest.of(NOW.minusSeconds(1800), FireTrigger.SCHEDULED, "n1"))
                .outcome()).isEqualTo(FireOutcome.COMMITTED);
        assertThat(List.of(oldCount("a-early"), oldCount("b-mid"))).as("a-early's 30, b-mid's 10")
                .containsExactly(0L, 20L);
        oldFires("a-early", 30, 200);
        // a fire of the same replica that rolls back: its walk went on (to c-late), its transaction did not commit
        try (Connection rolledBack = dataSource.getConnection()) {
            rolledBack.setAutoCommit(false);
            onReplica1.purge(rolledBack, NOW.minusSeconds(1500));
            rolledBack.rollback();
        }

        assertThat(firePath.fire(onReplica2, FireRequest.of(NOW.minusSeconds(1200), FireTrigger.SCHEDULED, "n2"))
                .outcome()).isEqualTo(FireOutcome.COMMITTED);

        assertThat(List.of(oldCount("a-early"), oldCount("b-mid"), oldCount("c-late")))
                .as("the other replica goes on at b-mid, where the last committed fire stopped: b-mid's 20, c-late's 20")
                .containsExactly(30L, 0L, 10L);
    }

    /**
     * A fire that finds the walk's row held by another fire's transaction (one that outlived its lock) leaves the row
     * to it rather than wait for it: its own deletes commit.
     */
    @Test
    void aFireFindingTheWalksRowHeldCommitsWithoutWaitingAndLeavesTheRow() throws Exception {
        // a cap of 35: daily's 30 rows past its newest 30 days, then 5 of monthly's; the walk stops after daily
        RetentionJob capped = new RetentionJob(settings(10, 35, 1), new SimpleMeterRegistry(), dataSource, 1);
        jdbc.sql("INSERT INTO onebeat_retention_walk (resume_after) VALUES ('')").update();
        long before = ledgerRows();
        try (Connection other = dataSource.getConnection(); Statement statement = other.createStatement()) {
            other.setAutoCommit(false);
            statement.executeQuery("SELECT * FROM onebeat_retention_walk FOR UPDATE").close();

            FireResult fire = CompletableFuture.supplyAsync(() -> firePath.fire(capped,
                    FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"))).get(60, TimeUnit.SECONDS);

            assertThat(fire.outcome()).isEqualTo(FireOutcome.COMMITTED);
            other.rollback();
        }
        assertThat(ledgerRows()).as("its cap of 35, deleted").isEqualTo(before - 35);
        assertThat(jdbc.sql("SELECT resume_after FROM onebeat_retention_walk").query(String.class).single())
                .as("left to the fire that held it").isEmpty();
    }

    private long ledgerRows() {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name IN ('daily', 'monthly')").query(Long.class)
                .single();
    }

    /**
     * The walk's order is the database's: under a collation that sorts names otherwise than Java does (ICU's English:
     * {@code alpha < Mid < Nova < onebeat-retention}, the retention job's own fires; Java's: {@code Mid < Nova <
     * alpha}), a fire that goes round from the last job to the first stops where the database's order reaches the job
     * it began after (here {@code Mid}), not Java's, which would stop before {@code alpha}.
     */
    @Test
    void aWalkUnderACollationOtherThanJavasOrderGoesRoundInTheDatabasesOrder() throws SQLException {
        assumeTrue(jdbc.sql("SELECT count(*) FROM pg_collation WHERE collname = 'en-US-x-icu'").query(Long.class)
                .single() == 1, "a server built with ICU");
        String type = jdbc.sql("""
                SELECT format_type(atttypid, atttypmod) FROM pg_attribute
                WHERE attrelid = 'onebeat_fire'::regclass AND attname = 'job_name'""").query(String.class).single();
        try {
            jdbc.sql("ALTER TABLE onebeat_fire ALTER COLUMN job_name TYPE " + type + " COLLATE \"en-US-x-icu\"")
                    .update();
            // the pool's connections hold statements prepared for the column as it was
            renewConnections();
            jdbc.sql("TRUNCATE onebeat_fire").update();
            // a cap of 40 ledger rows, 10 a statement, each job keeping its newest fire, a job a slice
            RetentionJob capped = new RetentionJob(settings(10, 40, 1), new SimpleMeterRegistry(), dataSource, 1);
            for (String job : List.of("alpha", "Mid", "Nova")) {
                fires(job, 1, Duration.ofDays(1));
                oldFires(job, 30, 40);
            }

            assertThat(firePath.fire(capped, FireRequest.of(NOW.minusSeconds(1800), FireTrigger.SCHEDULED, "n1"))
                    .outcome()).isEqualTo(FireOutcome.COMMITTED);
            assertThat(List.of(oldCount("alpha"), oldCount("Mid"), oldCount("Nova"))).as("alpha's 30, then Mid's 10")
                    .containsExactly(0L, 20L, 30L);
            // alpha has more to delete again: it waits for the walk to come round
            oldFires("alpha", 30, 200);

            assertThat(firePath.fire(capped, FireRequest.of(NOW.minusSeconds(1200), FireTrigger.SCHEDULED, "n1"))
                    .outcome()).isEqualTo(FireOutcome.COMMITTED);
            assertThat(List.of(oldCount("alpha"), oldCount("Mid"), oldCount("Nova"))).as("Mid's 20, Nova's 20")
                    .containsExactly(30L, 0L, 10L);

            assertThat(firePath.fire(capped, FireRequest.of(NOW.minusSeconds(600), FireTrigger.SCHEDULED, "n1"))
                    .outcome()).isEqualTo(FireOutcome.COMMITTED);
            assertThat(List.of(oldCount("alpha"), oldCount("Mid"), oldCount("Nova")))
                    .as("Nova's last 10, then round to alpha, which comes before Mid in the database's order")
                    .containsExactly(0L, 0L, 0L);
        } finally {
            jdbc.sql("ALTER TABLE onebeat_fire ALTER COLUMN job_name TYPE " + type + " COLLATE \"default\"").update();
            renewConnections();
        }
    }

    /** Retention with this class's ages (the ledger's 30 days), its statement size, cap and fires kept per job. */
    private static RetentionProperties settings(int batchSize, int maxRowsPerFire, int keepLastFires) {
        return new RetentionProperties(true, "*/10 * * * *", batchSize, maxRowsPerFire, Duration.ofDays(30),
                keepLastFires, Duration.ofDays(90), Duration.ofDays(90), Duration.ofDays(365), Duration.ofDays(90),
                Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(1), Duration.ofDays(90), Duration.ofDays(1));
    }

    private void renewConnections() throws SQLException {
        dataSource.unwrap(HikariDataSource.class).getHikariPoolMXBean().softEvictConnections();
    }

    @Test
    void aLedgerRowAnotherTransactionHoldsIsSkippedAndTheRestOfItsSliceGoes() throws Exception {
        // 10 rows a statement: the 34 rows to go (29 of daily, 5 of monthly) take four, the held row skipped
        RetentionJob batched = new RetentionJob(settings(10, 100_000, 5), new SimpleMeterRegistry(), dataSource);
        try (Connection other = dataSource.getConnection(); Statement statement = other.createStatement()) {
            other.setAutoCommit(false);
            statement.executeQuery("SELECT id FROM onebeat_fire WHERE job_name = 'daily' AND scheduled_at < now() - "
                    + "interval '50 days' ORDER BY scheduled_at LIMIT 1 FOR UPDATE").close();

            FireResult fire = CompletableFuture.supplyAsync(() -> firePath.fire(batched,
                    FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"))).get(60, TimeUnit.SECONDS);

            assertThat(fire.outcome()).isEqualTo(FireOutcome.COMMITTED);
            assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'daily'")).as("30 kept, 1 held")
                    .isEqualTo(31);
            assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'monthly'")).isEqualTo(5);
            other.commit();
        }
    }

    @Test
    void aFireOfAnotherJobHoldingRowsIsNeitherWaitedForNorTouched() throws Exception {
        try (Connection other = dataSource.getConnection(); Statement statement = other.createStatement()) {
            other.setAutoCommit(false);
            // another fire's transaction: its new ledger row, and one old attempt row it holds
            statement.executeUpdate("INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, "
                    + "outcome) VALUES ('daily', now(), now(), 'n2', 'scheduled', 'committed')");
            statement.executeQuery("SELECT id FROM onebeat_fire_attempt WHERE attempted_at < now() - interval '99 days' "
                    + "ORDER BY id LIMIT 1 FOR UPDATE").close();

            FireResult fire = CompletableFuture.supplyAsync(() -> firePath.fire(retention(),
                    FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"))).get(60, TimeUnit.SECONDS);
            assertThat(fire.outcome()).isEqualTo(FireOutcome.COMMITTED);
            assertThat(count("SELECT count(*) FROM onebeat_fire_attempt")).as("the held row stayed").isEqualTo(11);
            other.commit();
        }
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE node = 'n2'")).isEqualTo(1);
    }

    @Test
    void anInstantWhoseLedgerRowWasPurgedIsNeverFiredAgainByABackfillAReRunOrTheFirePath() {
        PeriodicJob job = registry.find("ret-job").orElseThrow().job();
        Instant first = NOW.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(40));
        List<Instant> old = List.of(first, first.plus(Duration.ofHours(1)), first.plus(Duration.ofHours(2)));
        old.forEach(at -> firePath.fire(job, FireRequest.of(at, FireTrigger.SCHEDULED, "n1")));
        for (int hours = 1; hours <= 6; hours++) {
            firePath.fire(job,
                    FireRequest.of(NOW.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(hours)), FireTrigger.SCHEDULED,
                            "n1"));
        }

        assertThat(firePath.fire(retention(),
                FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1")).outcome()).isEqualTo(FireOutcome.COMMITTED);

        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'ret-job'")).as("the 6 of the last 30 days")
                .isEqualTo(6);
        Instant horizon = old.get(2);
        Instant to = first.plus(Duration.ofHours(3));
        Backfills.Plan dryRun = backfills.start("ret-job", first, to, true);
        assertThat(dryRun.instants()).extracting(Backfills.PlannedInstant::outcome)
                .containsOnly(Backfills.BEYOND_HORIZON).hasSize(3);
        assertThat(dryRun.toFire()).isZero();
        assertThatThrownBy(() -> backfills.start("ret-job", first, to, false))
                .isInstanceOf(AdminConflictException.class)
                .hasMessageContaining("job 'ret-job'").hasMessageContaining(horizon.toString());
        assertThatThrownBy(() -> instantRuns.rerun("ret-job", old.get(1)))
                .isInstanceOf(AdminConflictException.class)
                .hasMessageContaining("job 'ret-job'").hasMessageContaining(horizon.toString());
        assertThat(firePath.fire(job, FireRequest.of(horizon, FireTrigger.BACKFILL, "n1").withAttempt(2)).outcome())
                .as("the ledger's own claim").isEqualTo(FireOutcome.DUPLICATE);
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'ret-job'")).isEqualTo(6);
        assertThat(count("SELECT count(*) FROM onebeat_backfill")).isZero();
        assertThat(backfills.start("ret-job", horizon.plusSeconds(1), to.plus(Duration.ofHours(1)), true).toFire())
                .as("after the horizon, an instant without a fire is backfilled").isEqualTo(1);
    }

    @Test
    void aJobsHorizonOnlyMovesForwardAndStaysWhenItsLedgerIsEmpty() {
        PeriodicJob job = registry.find("ret-job").orElseThrow().job();
        Instant old = NOW.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(40));
        for (int i = 0; i < 7; i++) {
            firePath.fire(job, FireRequest.of(old.plus(Duration.ofHours(i)), FireTrigger.SCHEDULED, "n1"));
        }
        firePath.fire(retention(), FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"));
        Instant horizon = old.plus(Duration.ofHours(1));
        assertThat(jdbc.sql("SELECT purged_through FROM onebeat_fire_horizon WHERE job_name = 'ret-job'")
                .query(Timestamp.class).single().toInstant()).as("the older 2 of 7 go").isEqualTo(horizon);

        jdbc.sql("DELETE FROM onebeat_fire WHERE job_name = 'ret-job'").update();
        firePath.fire(retention(), FireRequest.of(NOW.plusSeconds(600), FireTrigger.SCHEDULED, "n1"));

        assertThat(jdbc.sql("SELECT purged_through FROM onebeat_fire_horizon WHERE job_name = 'ret-job'")
                .query(Timestamp.class).single().toInstant()).isEqualTo(horizon);
        assertThat(firePath.fire(job, FireRequest.of(old, FireTrigger.BACKFILL, "n1").withAttempt(2)).outcome())
                .isEqualTo(FireOutcome.DUPLICATE);
    }

    @Test
    void aFireOfAnInstantWhoseRowAPassIsDeletingWaitsForThePassAndIsRefused() throws Exception {
        PeriodicJob job = registry.find("ret-job").orElseThrow().job();
        Instant old = NOW.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(40));
        for (int i = 0; i < 7; i++) {
            firePath.fire(job, FireRequest.of(old.plus(Duration.ofHours(i)), FireTrigger.SCHEDULED, "n1"));
        }
        // a first pass gives the job its horizon row (the older 2 go); after one more fire, the second pass, left
        // open, deletes the oldest left: the instant the fire claims
        firePath.fire(retention(), FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"));
        firePath.fire(job,
                FireRequest.of(NOW.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1)), FireTrigger.SCHEDULED,
                        "n1"));
        Instant claimed = old.plus(Duration.ofHours(2));
        try (Connection pass = dataSource.getConnection()) {
            pass.setAutoCommit(false);
            ((RetentionJob) retention()).purge(pass, NOW.plusSeconds(600));
            assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'ret-job'")).as("not committed yet")
                    .isEqualTo(6);

            CompletableFuture<FireResult> fire = CompletableFuture.supplyAsync(() -> firePath.fire(job,
                    FireRequest.of(claimed, FireTrigger.BACKFILL, "n2").withAttempt(2)));
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !fire.isDone());
            pass.commit();

            assertThat(fire.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(FireOutcome.DUPLICATE);
        }
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'ret-job' AND node = 'n2'")).isZero();
        assertThat(count("SELECT count(*) FROM onebeat_fire WHERE job_name = 'ret-job'")).isEqualTo(5);
    }

    @Test
    void theBackfillsMonitorRowsAndLockRowsOfDeletedJobsGoAndThoseOfLiveJobsStay() {
        Instant twoDays = days(2);
        jdbc.sql("""
                INSERT INTO onebeat_backfill (job_name, range_from, range_to, state, total, created_by, created_at,
                                              updated_at)
                VALUES ('gone-job', ?, ?, 'running', 5, 'ann', ?, ?), ('ret-job', ?, ?, 'done', 5, 'ann', ?, ?),
                       ('ret-job', ?, ?, 'done', 5, 'ann', ?, ?), ('ret-job', ?, ?, 'running', 5, 'ann', ?, ?)""")
                .params(ts(days(9)), ts(days(8)), ts(twoDays), ts(twoDays),
                        ts(days(109)), ts(days(108)), ts(days(100)), ts(days(100)),
                        ts(days(9)), ts(days(8)), ts(days(1)), ts(days(1)),
                        ts(days(109)), ts(days(108)), ts(days(100)), ts(days(100)))
                .update();
        jdbc.sql("""
                INSERT INTO onebeat_job_monitor (job_name, checked_until, updated_at)
                VALUES ('gone-job', ?, ?), ('ret-job', ?, ?)""")
                .params(ts(twoDays), ts(twoDays), ts(twoDays), ts(twoDays)).update();
        jdbc.sql("DELETE FROM shedlock WHERE name LIKE '%gone-job%' OR name LIKE '%ret-job%' OR name IN "
                + "('onebeat-backfill:7', 'onebeat-monitor')").update();
        List<String> locks = List.of("onebeat:gone-job", "onebeat-waiting:gone-job", "onebeat-next:gone-job",
                "onebeat:ret-job@1700000000000", "onebeat-backfill:7", "onebeat:ret-job", "onebeat-monitor");
        locks.forEach(name -> jdbc.sql("""
                        INSERT INTO shedlock (name, lock_until, locked_at, locked_by)
                        VALUES (?, timezone('utc', ?::timestamptz), timezone('utc', ?::timestamptz), 'n1')""")
                .params(name, ts(twoDays), ts(twoDays)).update());

        firePath.fire(retention(), FireRequest.of(NOW, FireTrigger.SCHEDULED, "n1"));

        assertThat(strings("SELECT job_name || ' ' || state FROM onebeat_backfill ORDER BY id"))
                .containsExactly("ret-job done", "ret-job running");
        assertThat(strings("SELECT job_name FROM onebeat_job_monitor")).containsExactly("ret-job");
        assertThat(strings("SELECT name FROM shedlock WHERE name = ANY(?::varchar[]) ORDER BY name",
                (Object) locks.toArray(String[]::new))).containsExactly("onebeat-monitor", "onebeat:ret-job");
    }

    private PeriodicJob retention() {
        return registry.find(RetentionJob.NAME).orElseThrow().job();
    }

    private void fires(String job, int count, Duration apart) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                        SELECT ?, ?::timestamptz - n * ?::interval, ?::timestamptz - n * ?::interval, 'n1', 'scheduled',
                               'committed'
                        FROM generate_series(0, ? - 1) AS n""")
                .params(job, ts(days(1)), apart.toSeconds() + " seconds", ts(days(1)), apart.toSeconds() + " seconds",
                        count)
                .update();
    }

    /** {@code count} fires of {@code job}, a day apart, the newest {@code daysAgo} days old. */
    private void oldFires(String job, int count, int daysAgo) {
        jdbc.sql("""
                        INSERT INTO onebeat_fire (job_name, scheduled_at, fired_at, node, trigger_kind, outcome)
                        SELECT ?, ?::timestamptz - n * interval '1 day', ?::timestamptz - n * interval '1 day', 'n1',
                               'scheduled', 'committed'
                        FROM generate_series(0, ? - 1) AS n""")
                .params(job, ts(days(daysAgo)), ts(days(daysAgo)), count).update();
    }

    /** @return the job's ledger rows older than 35 days: past the 30 days kept, whichever fire's instant counts */
    private long oldCount(String job) {
        return jdbc.sql("SELECT count(*) FROM onebeat_fire WHERE job_name = ? AND scheduled_at < ?")
                .params(job, ts(days(35))).query(Long.class).single();
    }

    private void task(String key, String status, Instant createdAt) {
        jdbc.sql("""
                        INSERT INTO onebeat_task (idempotency_key, job_name, scheduled_at, task, queue, payload, status,
                                                  created_at)
                        VALUES (?, 'daily', ?, 't', 'q', '{}', ?, ?)""")
                .params(key, ts(createdAt), status, ts(createdAt)).update();
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }

    private List<String> strings(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(String.class).list();
    }

    private static Instant days(int n) {
        return NOW.minus(Duration.ofDays(n));
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
