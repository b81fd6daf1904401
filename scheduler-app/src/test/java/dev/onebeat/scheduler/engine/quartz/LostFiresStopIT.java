package dev.onebeat.scheduler.engine.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SharedSchedulerIT;
import dev.onebeat.scheduler.boot.database.StoppableTransactions;
import dev.onebeat.scheduler.engine.cluster.FailoverProperties;
import dev.onebeat.scheduler.engine.fire.InstantRecords;
import dev.onebeat.scheduler.engine.registry.JobCatalog;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.quartz.Scheduler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A look for lost fires after a database server change reads every registered job's trigger and ledger, in one
 * transaction: at a million jobs, minutes. A shutdown ends it, rolled back, before the pool closes. Here the look waits
 * in the database, for the catalog another session holds locked.
 */
@SharedSchedulerIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED})
class LostFiresStopIT {

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
    TransactionTemplate transactions;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    DataSource dataSource;
    @Autowired
    FailoverProperties failover;

    @Test
    void aShutdownEndsALookUnderWayRolledBackBeforeItGoesOn() throws Exception {
        LostFires lostFires = new LostFires(scheduler, registry, catalog, records, stranded, transactions, jdbc,
                dataSource, Clock.systemUTC(), failover, new SimpleMeterRegistry(), 60_000);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement statement = other.createStatement()) {
                statement.execute("LOCK TABLE onebeat_job IN ACCESS EXCLUSIVE MODE");
            }
            Future<Integer> look = thread.submit(lostFires::refire);
            awaitWaitingForTheCatalog();

            lostFires.destroy();

            assertThat(lookWaitingForTheCatalog()).as("the look's statement ended before the shutdown went on")
                    .isZero();
            // while the catalog is still locked, and well within the server's lock_timeout (3 s)
            assertThatThrownBy(() -> look.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(StoppableTransactions.Stopped.class)
                    .hasRootCauseMessage("ERROR: canceling statement due to user request");
            other.rollback();
        } finally {
            thread.shutdownNow();
        }
    }

    /** @return sessions waiting for the catalog that hold the look's lock (advisory: the only one taken here) */
    private int lookWaitingForTheCatalog() {
        return jdbc.sql("""
                        SELECT count(*) FROM pg_locks waiting JOIN pg_locks look ON look.pid = waiting.pid
                        WHERE waiting.relation = 'onebeat_job'::regclass AND NOT waiting.granted
                          AND look.locktype = 'advisory' AND look.granted""")
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
