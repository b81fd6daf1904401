package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import dev.onebeat.scheduler.boot.database.StoppableTransactions;
import dev.onebeat.scheduler.engine.cluster.LiveNodes;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.OrphanJudgements;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The orphan judgement is made once per change by the cluster, not once per replica: each {@link Orphans} here stands
 * for one replica's judge (the context's own never turns, its Quartz is stopped), and they share the database. A
 * replica's check-in written as Quartz writes it changes what the judgement depends on.
 */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class OrphanJudgementIT {

    private static final String REPLICA = "orphan-judgement-it-replica";

    @Autowired
    JobCatalog catalog;
    @Autowired
    OrphanJudgements judgements;
    @Autowired
    LiveNodes nodes;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    DataSource dataSource;
    @Autowired
    ApplicationContext context;

    @BeforeEach
    void noJudgementRecordedAndThisReplicaCheckedIn() {
        noJudgementRecordedAndNoCheckIn();
        // the judging replicas here are all this one, as if its Quartz ran
        checkIn(nodes.self());
    }

    @AfterEach
    void noJudgementRecordedAndNoCheckIn() {
        jdbc.sql("DELETE FROM onebeat_orphan_judgement").update();
        jdbc.sql("DELETE FROM qrtz_scheduler_state WHERE instance_name LIKE ? OR instance_name = ?")
                .params(REPLICA + "%", nodes.self()).update();
    }

    @Test
    void aReplicaDoesNotJudgeAgainWhatAnotherJudgedOnTheSameInputs() {
        Orphans first = replica();
        Orphans second = replica();

        assertThat(first.judgeIfChanged()).as("nothing recorded: the first turn judges").isTrue();
        assertThat(second.judgeIfChanged()).as("another replica, same inputs").isFalse();
        assertThat(first.judgeIfChanged()).as("the same replica again, same inputs").isFalse();

        checkIn(REPLICA + "-a");
        assertThat(second.judgeIfChanged()).as("a replica joined the live cluster").isTrue();
        assertThat(first.judgeIfChanged()).as("that change is judged already").isFalse();
    }

    @Test
    void aJudgementOlderThanTheSafetyNetsPeriodIsMadeAgainOnce() {
        Orphans first = replica();
        Orphans second = replica();
        assertThat(first.judgeIfChanged()).isTrue();

        aged(Orphans.FULL_JUDGEMENT_EVERY.minusMinutes(1));
        assertThat(second.judgeIfChanged()).as("judged within the period, inputs unchanged").isFalse();

        aged(Duration.ofMinutes(2));
        assertThat(second.judgeIfChanged()).as("judged longer ago than the period").isTrue();
        assertThat(first.judgeIfChanged()).as("the safety net's judgement is the cluster's").isFalse();
    }

    @Test
    void aJudgementRecordedWithoutItsInputsIsMadeAgain() {
        Orphans first = replica();
        assertThat(first.judgeIfChanged()).isTrue();
        // what a judgement records when its inputs moved while it ran
        transactions.executeWithoutResult(status -> judgements.record(null, Duration.ZERO));

        assertThat(first.judgeIfChanged()).isTrue();
        assertThat(first.judgeIfChanged()).isFalse();
    }

    @Test
    void aJudgementByAReplicaWhoseOwnCheckInIsLateStandsForAMinute() {
        Orphans late = replica();
        Orphans other = replica();
        // it counts itself alive, which the cluster's inputs do not show
        jdbc.sql("DELETE FROM qrtz_scheduler_state WHERE instance_name = ?").param(nodes.self()).update();
        assertThat(late.judgeIfChanged()).isTrue();
        aged(Orphans.COUNTED_ITSELF_STANDS_FOR.minusSeconds(10));
        assertThat(other.judgeIfChanged()).as("within its minute, inputs unchanged").isFalse();
        aged(Duration.ofSeconds(20));
        assertThat(other.judgeIfChanged()).as("past its minute: it may have been a replica dying").isTrue();

        checkIn(nodes.self());
        assertThat(late.judgeIfChanged()).as("its check-in is a change").isTrue();
        aged(Orphans.COUNTED_ITSELF_STANDS_FOR.plusMinutes(1));
        assertThat(other.judgeIfChanged()).as("checked in: the inputs are all it depended on").isFalse();
    }

    @Test
    void theStartUpJudgementKeepsTheStartingReplicasJobsUntilItChecksInOrAMinuteHasPassed() {
        Orphans running = replica();
        Orphans starting = replica();
        assertThat(running.judgeIfChanged()).isTrue();
        // the start-up judgement's transaction, once the starting replica's registrations are recorded: it counts
        // itself alive before its Quartz checks in
        jdbc.sql("DELETE FROM qrtz_scheduler_state WHERE instance_name = ?").param(nodes.self()).update();
        starting.judge(false);

        assertThat(running.judgeIfChanged()).as("other replicas leave its judgement as it is").isFalse();
        aged(Orphans.COUNTED_ITSELF_STANDS_FOR.plusSeconds(10));
        assertThat(running.judgeIfChanged()).as("a minute on, and its Quartz never checked in").isTrue();
    }

    @Test
    void replicasTurningAtTheSameMomentJudgeEachChangeOnce() throws Exception {
        int replicas = 3;
        List<Orphans> judges = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            judges.add(replica());
        }
        ExecutorService threads = Executors.newFixedThreadPool(replicas);
        try {
            for (int change = 0; change < 5; change++) {
                checkIn(REPLICA + "-" + change);
                CyclicBarrier together = new CyclicBarrier(replicas);
                List<Future<Boolean>> turns = new ArrayList<>();
                for (Orphans judge : judges) {
                    turns.add(threads.submit(() -> {
                        together.await(10, TimeUnit.SECONDS);
                        return judge.judgeIfChanged();
                    }));
                }
                int judged = 0;
                for (Future<Boolean> turn : turns) {
                    judged += turn.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(judged).as("replicas that judged change %d", change).isEqualTo(1);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aShutdownCancelsAJudgementUnderWayAndReturnsOnceItHasRolledBack() throws Exception {
        // the pool aborts a connection still in use when it closes: a judgement of a million jobs (seconds) cut off
        // that way failed its rollback too and logged an error at every shutdown that met it. Here the judgement waits
        // in the database, for the lock another replica's judgement holds
        Orphans judging = replica();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                statement.execute("SELECT pg_advisory_xact_lock(hashtextextended('onebeat.orphans', 0))");
            }
            Future<Integer> judgement = thread.submit(() -> judging.judge(true));
            awaitWaitingForTheJudgementsLock();

            judging.destroy();

            assertThat(jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                            + "AND query LIKE '%pg_advisory_xact_lock(hashtextextended(''onebeat.orphans''%' "
                            + "AND wait_event_type = 'Lock'").query(Integer.class).single())
                    .as("the judgement's statement ended before the shutdown went on").isZero();
            // cancelled, not ended by the server's lock_timeout (3 s), which a mere wait would have met
            assertThatThrownBy(() -> judgement.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(StoppableTransactions.Stopped.class)
                    .hasRootCauseMessage("ERROR: canceling statement due to user request");
            try (Statement statement = other.createStatement();
                 ResultSet held = statement.executeQuery("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                         + "AND pid = pg_backend_pid() AND granted")) {
                held.next();
                assertThat(held.getInt(1)).as("the other replica's transaction, untouched by the cancel").isOne();
            }
            other.rollback();
        } finally {
            thread.shutdownNow();
        }
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_orphan_judgement").query(Integer.class).single())
                .as("the cancelled judgement recorded nothing").isZero();
    }

    @Test
    void theShutdownsBeginningCancelsAJudgementUnderWayBeforeAnythingWaitsForIt() throws Exception {
        // the judgement rolls back while the replica's fires and relay finish, not once the pool is about to close
        Orphans judging = replica();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection other = dataSource.getConnection();
             GenericApplicationContext another = new GenericApplicationContext()) {
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                statement.execute("SELECT pg_advisory_xact_lock(hashtextextended('onebeat.orphans', 0))");
            }
            Future<Integer> judgement = thread.submit(() -> judging.judge(true));
            awaitWaitingForTheJudgementsLock();

            judging.shutdownBegins(new ContextClosedEvent(another));
            Thread.sleep(300);
            assertThat(judgement).as("another context's close (a child's) ends nothing").isNotDone();

            judging.shutdownBegins(new ContextClosedEvent(context));

            // the cancel's, not the server's lock_timeout (3 s) nor a wait for ever
            assertThatThrownBy(() -> judgement.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(StoppableTransactions.Stopped.class)
                    .hasRootCauseMessage("ERROR: canceling statement due to user request");
            other.rollback();
        } finally {
            judging.destroy();
            thread.shutdownNow();
        }
        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_orphan_judgement").query(Integer.class).single())
                .as("the cancelled judgement recorded nothing").isZero();
    }

    private void awaitWaitingForTheJudgementsLock() throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            if (jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    + "AND query LIKE '%pg_advisory_xact_lock(hashtextextended(''onebeat.orphans''%' "
                    + "AND wait_event_type = 'Lock'").query(Integer.class).single() == 1) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the judgement never waited for the lock");
    }

    private Orphans replica() {
        Orphans replica = new Orphans(catalog, judgements, nodes, transactions, jdbc, dataSource);
        replica.setApplicationContext(context);
        return replica;
    }

    /** Writes a replica's check-in as Quartz does; the database stamps when it saw it (migration 017). */
    private void checkIn(String instance) {
        jdbc.sql("""
                        INSERT INTO qrtz_scheduler_state (sched_name, instance_name, last_checkin_time, checkin_interval)
                        VALUES ('test', ?, extract(epoch FROM clock_timestamp()) * 1000, 60000)""")
                .param(instance).update();
    }

    /** Moves the recorded judgement {@code by} into the past, as if that time had passed since it was made. */
    private void aged(Duration by) {
        jdbc.sql("""
                        UPDATE onebeat_orphan_judgement SET judged_at = judged_at - ? * interval '1 millisecond',
                                                             stands_until = stands_until - ? * interval '1 millisecond'""")
                .params(by.toMillis(), by.toMillis()).update();
    }
}
