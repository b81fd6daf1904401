package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.quartz.QuartzTriggers;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.quartz.Scheduler;
import org.quartz.TriggerKey;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * An admin change and its audit row commit together or not at all, and changes to one job made at
 * the same moment (real threads, each on its own connection) happen one after the other.
 */
@SchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.jobs[0].name=paused-at-once", "onebeat.jobs[0].cron=0 6 1 1 *", "onebeat.jobs[0].task=ops.noop",
        "onebeat.jobs[1].name=audit-breaks", "onebeat.jobs[1].cron=0 7 1 1 *", "onebeat.jobs[1].task=ops.noop"})
class AdminTransactionsIT {

    private static final int THREADS = 8;

    @Autowired
    JobControl control;

    @Autowired
    RuntimeJobs runtimeJobs;

    @Autowired
    Scheduler scheduler;

    @Autowired
    JdbcClient jdbc;
    @Autowired
    JobCatalog catalog;
    @Autowired
    DataSource dataSource;

    @Test
    void changeWhoseAuditRowFailsIsRolledBack() throws Exception {
        jdbc.sql("""
                CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'audit refused for %', NEW.target; END $$""").update();
        jdbc.sql("""
                CREATE TRIGGER refuse_audit BEFORE INSERT ON onebeat_audit FOR EACH ROW
                WHEN (NEW.target = 'audit-breaks') EXECUTE FUNCTION refuse_audit()""").update();
        try {
            assertThatThrownBy(() -> control.pause("audit-breaks")).hasStackTraceContaining("audit refused");

            assertThat(catalog.find("audit-breaks").orElseThrow().paused()).as("paused in the catalog").isFalse();
        } finally {
            jdbc.sql("DROP TRIGGER refuse_audit ON onebeat_audit").update();
            jdbc.sql("DROP FUNCTION refuse_audit()").update();
        }
    }

    @Test
    void aChangeWhoseWaitForQuartzsLockFailedOnceCommitsWhole() throws Exception {
        // another session holds Quartz's trigger lock (a replica that froze holding it); the change's first wait for
        // it fails (cancelled here, as the server's lock_timeout ends it after 3 s), Quartz tries again and gets it.
        // Quartz rolled its connection back before trying again, and so undid the change's own statements made
        // before, in the same transaction, which went on and committed the rest
        String name = "lock-retried";
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement();
                 ResultSet locked = statement.executeQuery("SELECT count(*) FROM (SELECT * FROM qrtz_locks "
                         + "WHERE sched_name = 'onebeat' AND lock_name = 'TRIGGER_ACCESS' FOR UPDATE) l")) {
                locked.next();
                assertThat(locked.getInt(1)).as("Quartz's trigger lock held by another session").isOne();
            }
            Future<?> create = thread.submit(() -> runtimeJobs.create(Definition.builder(name)
                    .cron("17 3 2 2 *").task("ops.retried").build()));
            Waiting first = awaitWaitingForQuartzsLock(null);
            assertThat(jdbc.sql("SELECT pg_cancel_backend(?)").param(first.pid()).query(Boolean.class).single())
                    .isTrue();
            // Quartz's next try, 100 ms later, waits again
            awaitWaitingForQuartzsLock(first);
            other.rollback();
            create.get(30, TimeUnit.SECONDS);
        } finally {
            thread.shutdownNow();
        }

        assertThat(jdbc.sql("SELECT count(*) FROM onebeat_runtime_job WHERE name = ?").param(name)
                .query(Long.class).single()).as("the runtime job's row").isOne();
        assertThat(catalog.find(name)).as("its catalog row").isPresent();
        assertThat(scheduler.getTrigger(new TriggerKey(catalog.find(name).orElseThrow().scheduleKey(),
                QuartzTriggers.SCHEDULE_GROUP))).as("its schedule's trigger").isNotNull();
        assertThat(jdbc.sql("SELECT action FROM onebeat_audit WHERE target = ?").param(name).query(String.class)
                .list()).as("its audit row").containsExactly("job.create");
    }

    /** A session waiting for a lock, and since when its statement runs. */
    private record Waiting(int pid, Timestamp since) {
    }

    /**
     * Waits until the change's session waits for Quartz's lock: first one that has written before (so has a
     * transaction id), then, after {@code failed}, the same session in a later statement.
     */
    private Waiting awaitWaitingForQuartzsLock(Waiting failed) throws InterruptedException {
        for (int attempt = 0; attempt < 500; attempt++) {
            List<Waiting> waiting = jdbc.sql("""
                            SELECT pid, query_start FROM pg_stat_activity WHERE datname = current_database()
                            AND wait_event_type = 'Lock' AND query ILIKE '%LOCKS%FOR UPDATE%'
                            AND (? OR backend_xid IS NOT NULL)
                            AND (pid = ? OR ? < 0) AND query_start > ?""")
                    .params(failed != null, failed == null ? -1 : failed.pid(), failed == null ? -1 : failed.pid(),
                            failed == null ? new Timestamp(0) : failed.since())
                    .query((rs, row) -> new Waiting(rs.getInt(1), rs.getTimestamp(2))).list();
            if (waiting.size() == 1) {
                return waiting.get(0);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the change never waited for Quartz's lock" + (failed == null ? "" : " again"));
    }

    @Test
    void pausesSentAtOnceWriteOneAuditRow() throws Exception {
        for (int round = 0; round < 5; round++) {
            everyThreadAtOnce(() -> control.pause("paused-at-once"));
            everyThreadAtOnce(() -> control.resume("paused-at-once"));
        }

        assertThat(jdbc.sql("SELECT action FROM onebeat_audit WHERE target = 'paused-at-once' ORDER BY id")
                .query(String.class).list())
                .hasSize(10)
                .containsExactlyElementsOf(List.of("job.pause", "job.resume", "job.pause", "job.resume", "job.pause",
                        "job.resume", "job.pause", "job.resume", "job.pause", "job.resume"));
    }

    @Test
    void changeRacingADeleteNeverBringsTheJobBack() throws Exception {
        for (int round = 0; round < 10; round++) {
            String name = "raced-" + round;
            runtimeJobs.create(Definition.builder(name).every("1h").task("ops.raced").build());
            CyclicBarrier start = new CyclicBarrier(2);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<?> change = threads.submit(() -> {
                    start.await();
                    return runtimeJobs.update(name, Definition.builder(name).every("2h").task("ops.raced").build());
                });
                Future<?> delete = threads.submit(() -> {
                    start.await();
                    runtimeJobs.delete(name);
                    return null;
                });
                delete.get(30, TimeUnit.SECONDS);
                try {
                    change.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    // the delete came first: the change finds no job
                    assertThat(e.getCause()).isInstanceOf(UnknownJobException.class);
                }
            } finally {
                threads.shutdownNow();
            }

            assertThat(jdbc.sql("SELECT count(*) FROM onebeat_runtime_job WHERE name = ?").param(name)
                    .query(Long.class).single()).as("row of %s", name).isZero();
            assertThat(catalog.find(name)).as("catalog row of %s", name).isEmpty();
            List<String> audit = jdbc.sql("SELECT action FROM onebeat_audit WHERE target = ? ORDER BY id")
                    .param(name).query(String.class).list();
            assertThat(audit).first().isEqualTo("job.create");
            assertThat(audit).last().isEqualTo("job.delete");
        }
    }

    private static void everyThreadAtOnce(Runnable change) throws Exception {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                done.add(threads.submit(() -> {
                    start.await();
                    change.run();
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
