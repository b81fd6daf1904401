package dev.onebeat.scheduler.operate.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.scheduler.SchedulerIT;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.quartz.Scheduler;
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
